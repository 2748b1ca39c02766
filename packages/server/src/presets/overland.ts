import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import type { Translator } from '../ingest/verdicts.js';
import type { TrackerGroup } from './osmand.js';
import { movingOf } from './motion-hints.js';
import { defined, finite, isObject, isoTime, notAPosition } from './record-parts.js';

/**
 * One Overland GeoJSON Feature as a default-schema record (Point [lon, lat], properties timestamp,
 * speed m/s, horizontal_accuracy, altitude, course, battery_level, device_id; `motion` as is_moving). Overland also queues
 * records that are no track points: its logged actions (`properties.action`: will_terminate,
 * visit, paused_location_updates...) and trip summaries (`properties.type: "trip"`), with or
 * without a geometry. Those are kept in quarantine (NOT_A_POSITION), visible, and never fail the
 * batch: Overland resends a refused batch for ever and nothing queued behind it would arrive.
 */
function overlandRecord(feature: unknown, path: string, deviceId: string): unknown {
  if (!isObject(feature)) throw badRequest('INVALID_RECORD', `${path} must be a GeoJSON Feature object`);
  const properties = isObject(feature.properties) ? feature.properties : {};
  if (properties.type === 'trip') throw notAPosition(`${path} is an Overland trip summary`);
  if (typeof properties.action === 'string')
    throw notAPosition(`${path} is an Overland logged action (${properties.action.slice(0, 40)})`);
  const geometry = feature.geometry;
  const coordinates = isObject(geometry) ? geometry.coordinates : undefined;
  if (!Array.isArray(coordinates) || typeof coordinates[0] !== 'number' || typeof coordinates[1] !== 'number') {
    throw badRequest('INVALID_TYPE', `${path}.geometry.coordinates must be [longitude, latitude] numbers`);
  }
  const timestamp = isoTime(properties.timestamp, `${path}.properties.timestamp`);
  const [longitude, latitude] = coordinates as [number, number];
  return {
    uuid: deriveUuid('overland', deviceId, Date.parse(timestamp), latitude, longitude),
    timestamp,
    coords: defined({
      latitude,
      longitude,
      accuracy: finite(properties.horizontal_accuracy),
      speed: finite(properties.speed),
      heading: finite(properties.course),
      altitude: finite(properties.altitude),
      altitude_accuracy: finite(properties.vertical_accuracy),
    }),
    // Overland's `motion` (Apple's motion activities): `["stationary"]` is a parked device.
    ...defined({ is_moving: movingOf(properties.motion) }),
    battery: defined({
      level: finite(properties.battery_level),
      is_charging: typeof properties.battery_state === 'string' ? properties.battery_state === 'charging' : undefined,
    }),
    extras: { source: 'overland' },
    source: feature,
  };
}

const overlandDevice = (feature: unknown): string | null => {
  const properties = isObject(feature) && isObject(feature.properties) ? feature.properties : {};
  const id = properties.device_id;
  return typeof id === 'string' && id.trim() !== '' ? id.trim() : null;
};

/**
 * The records of an Overland request (https://github.com/aaronpk/Overland-iOS#api), grouped by
 * the device_id each names. `current` (a point Overland sends again in a later batch) and `trip`
 * (the trip in progress) are not records.
 */
export function overlandGroups(body: unknown): TrackerGroup[] {
  if (!isObject(body) || !Array.isArray(body.locations)) {
    throw badRequest('INVALID_BODY', 'An Overland body is {"locations": [GeoJSON Feature, ...]}');
  }
  const groups = new Map<string | null, TrackerGroup>();
  body.locations.forEach((feature, i) => {
    const named = overlandDevice(feature);
    const translator: Translator = {
      record: (value, path) => overlandRecord(value, path, named ?? ''),
    };
    const group = groups.get(named) ?? { named, found: [], translator };
    group.found.push({ value: feature, path: `locations[${i}]` });
    groups.set(named, group);
  });
  return [...groups.values()];
}
