import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import { normalizeRecord, parseTimestamp, type StoredRecord } from '../ingest/normalize.js';
import { checkTimestamp } from '../ingest/validation.js';

const KNOTS_TO_MS = 0.514444;

function numberParam(params: Record<string, unknown>, name: string, required: boolean): number | null {
  const raw = params[name];
  if (raw === undefined || raw === '') {
    if (required) throw badRequest('MISSING_PARAMETER', `OsmAnd parameter ${name} is required`);
    return null;
  }
  const value = Number(raw);
  if (!Number.isFinite(value))
    throw badRequest('INVALID_TYPE', `OsmAnd parameter ${name} must be a number, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * Traccar's OsmAnd protocol: id, lat, lon, timestamp (epoch s or ms, or ISO), speed in knots,
 * bearing, altitude, accuracy, batt (percent); `location=lat,lon` is accepted too.
 */
export function osmandRecord(
  params: Record<string, unknown>,
  receivedAt: number,
): { deviceId: string; record: StoredRecord } {
  const deviceId =
    typeof params.id === 'string' && params.id !== ''
      ? params.id
      : typeof params.deviceid === 'string'
        ? params.deviceid
        : '';
  if (!deviceId) throw badRequest('MISSING_PARAMETER', 'OsmAnd parameter id (the device) is required');
  if (typeof params.location === 'string' && params.lat === undefined) {
    const [lat, lon] = params.location.split(',');
    params = { ...params, lat, lon };
  }
  const latitude = numberParam(params, 'lat', true)!;
  const longitude = numberParam(params, 'lon', true)!;
  const time = params.timestamp === undefined ? receivedAt : parseTimestamp(params.timestamp);
  if (time === null)
    throw badRequest('INVALID_TIMESTAMP', `OsmAnd timestamp is not a date: ${JSON.stringify(params.timestamp)}`);
  checkTimestamp(time, 'OsmAnd timestamp', receivedAt);
  const speed = numberParam(params, 'speed', false);
  const battery = numberParam(params, 'batt', false);
  const record = {
    uuid: deriveUuid('osmand', deviceId, time, latitude, longitude),
    timestamp: new Date(time).toISOString(),
    coords: {
      latitude,
      longitude,
      accuracy: numberParam(params, 'accuracy', false) ?? -1,
      speed: speed === null ? -1 : speed * KNOTS_TO_MS,
      heading: numberParam(params, 'bearing', false) ?? -1,
      altitude: numberParam(params, 'altitude', false) ?? -1,
    },
    battery: { level: battery === null ? -1 : battery / 100, is_charging: params.charge === 'true' },
    extras: { source: 'osmand' },
  };
  return { deviceId, record: normalizeRecord({ value: record, path: 'osmand' }, receivedAt) };
}
