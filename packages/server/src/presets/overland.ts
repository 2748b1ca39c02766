import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import { normalizeRecord, parseTimestamp, type StoredRecord } from '../ingest/normalize.js';
import { checkTimestamp } from '../ingest/validation.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : -1);

/**
 * One Overland GeoJSON Feature (Point [lon, lat], properties timestamp, speed m/s,
 * horizontal_accuracy, altitude, course, battery_level, device_id) as a default-schema record.
 */
export function overlandRecord(feature: unknown, path: string, deviceId: string, receivedAt: number): StoredRecord {
  if (!isObject(feature)) throw badRequest('INVALID_RECORD', `${path} must be a GeoJSON Feature object`);
  const geometry = feature.geometry;
  const coordinates = isObject(geometry) ? geometry.coordinates : undefined;
  if (!Array.isArray(coordinates) || typeof coordinates[0] !== 'number' || typeof coordinates[1] !== 'number') {
    throw badRequest('INVALID_TYPE', `${path}.geometry.coordinates must be [longitude, latitude] numbers`);
  }
  const properties = isObject(feature.properties) ? feature.properties : {};
  const time = parseTimestamp(properties.timestamp);
  if (time === null) throw badRequest('INVALID_TIMESTAMP', `${path}.properties.timestamp is not a date`);
  checkTimestamp(time, `${path}.properties.timestamp`, receivedAt);
  const [longitude, latitude] = coordinates as [number, number];
  const record = {
    uuid: deriveUuid('overland', deviceId, time, latitude, longitude),
    timestamp: new Date(time).toISOString(),
    coords: {
      latitude,
      longitude,
      accuracy: num(properties.horizontal_accuracy),
      speed: num(properties.speed),
      heading: num(properties.course),
      altitude: num(properties.altitude),
      altitude_accuracy: num(properties.vertical_accuracy),
    },
    battery: { level: num(properties.battery_level), is_charging: properties.battery_state === 'charging' },
    extras: { source: 'overland' },
    source: feature,
  };
  return normalizeRecord({ value: record, path }, receivedAt);
}

export function overlandFeatures(body: unknown): unknown[] {
  if (!isObject(body) || !Array.isArray(body.locations)) {
    throw badRequest('INVALID_BODY', 'An Overland body is {"locations": [GeoJSON Feature, ...]}');
  }
  return body.locations;
}

export const overlandDevice = (feature: unknown): string | null => {
  const properties = isObject(feature) && isObject(feature.properties) ? feature.properties : {};
  return typeof properties.device_id === 'string' && properties.device_id !== '' ? properties.device_id : null;
};
