import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import type { Translator } from '../ingest/verdicts.js';
import type { TrackerGroup } from './osmand.js';
import { defined, finite, isObject, isoTime, type JsonObject } from './record-parts.js';

/** A position's `id`: the plugin's per-install, strictly increasing number, or null. */
const sequenceOf = (value: unknown): number | null => {
  const id = isObject(value) ? value.id : undefined;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id : null;
};

const textId = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * One position of the Capawesome Capacitor Background Geolocation plugin's HTTP sync as a
 * default-schema record (https://capawesome.io/plugins/background-geolocation/#server-contract):
 * `{id, latitude, longitude, accuracy, altitude, altitudeAccuracy, bearing, speed, simulated,
 * timestamp (ms)}`, null where unknown. Its `id` is the record's sequence number, so the delivery
 * ledger accounts for every position the install recorded, as it does for the Waypost SDK's. The
 * uuid is the id with the fix, so an at-least-once resend is a duplicate while a reinstall (ids
 * from 1 again) is not.
 */
function capacitorRecord(position: unknown, path: string, deviceId: string, extras: JsonObject): unknown {
  if (!isObject(position)) throw badRequest('INVALID_RECORD', `${path} must be a position object`);
  const sequence = sequenceOf(position);
  if (position.id !== undefined && sequence === null)
    throw badRequest('INVALID_TYPE', `${path}.id must be a positive integer, got ${JSON.stringify(position.id)}`);
  const timestamp = isoTime(position.timestamp, `${path}.timestamp`);
  return defined({
    uuid: deriveUuid('capacitor', deviceId, sequence, Date.parse(timestamp), position.latitude, position.longitude),
    timestamp,
    sequence: sequence ?? undefined,
    coords: defined({
      latitude: position.latitude,
      longitude: position.longitude,
      accuracy: finite(position.accuracy),
      speed: finite(position.speed),
      heading: finite(position.bearing),
      altitude: finite(position.altitude),
      altitude_accuracy: finite(position.altitudeAccuracy),
    }),
    mock: typeof position.simulated === 'boolean' ? position.simulated : undefined,
    extras: { ...extras, source: 'capacitor' },
  });
}

/**
 * The records of a Capacitor plugin's sync request: `{"positions": [...], "extras": {...}}`. The
 * device is named by a device token, the `X-Device-Id` header or `?device_id=` (the plugin's
 * `headers` and `url` options), or `extras.device_id` / `extras.deviceId`.
 */
export function capacitorGroups(body: unknown): TrackerGroup[] {
  if (!isObject(body) || !Array.isArray(body.positions)) {
    throw badRequest(
      'INVALID_BODY',
      'A Capacitor sync body is {"positions": [{id, latitude, longitude, ...}], "extras": {...}}',
    );
  }
  const extras = isObject(body.extras) ? body.extras : {};
  const named = textId(extras.device_id) ?? textId(extras.deviceId);
  const translator: Translator = {
    record: (value, path) => capacitorRecord(value, path, named ?? '', extras),
    sequence: sequenceOf,
  };
  return [{ named, found: body.positions.map((value, i) => ({ value, path: `positions[${i}]` })), translator }];
}
