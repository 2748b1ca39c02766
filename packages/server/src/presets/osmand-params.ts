import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import { INPUT_LIMITS } from '../ingest/validation.js';
import { defined, isObject, isoTime, looseFinite, type JsonObject } from './record-parts.js';

const KNOTS_TO_MS = 0.514444;

/** Bounds on what a request may keep as attributes: Traccar keeps any parameter, we keep it bounded. */
export const ATTRIBUTE_LIMITS = { count: 50, keyLength: 64, valuesPerKey: 20 } as const;

/** Parameters read into the record's own fields; every other parameter is kept as an attribute. */
const FIELDS = new Set([
  'id',
  'deviceid',
  'timestamp',
  'lat',
  'lon',
  'location',
  'speed',
  'bearing',
  'heading',
  'altitude',
  'accuracy',
  'batt',
  'charge',
  // Traccar sends pushes to it; it says nothing about the position.
  'notificationToken',
]);

/** One value of a parameter: the last one when a form repeats it (cell and wifi keep them all). */
const single = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** The device an OsmAnd request or SDK item names (`id`, else `deviceid`), or null. */
export function osmandDevice(params: JsonObject): string | null {
  for (const key of ['id', 'deviceid']) {
    const value = single(params[key]);
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

/** A parameter as Traccar types it: a number, true/false, else the text (bounded). */
function typed(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text.slice(0, INPUT_LIMITS.maxTextLength);
}

/** Every parameter that is not one of the record's fields, as attributes; what exceeds the bounds is counted. */
function attributesOf(params: JsonObject): JsonObject {
  const attributes: JsonObject = {};
  let kept = 0;
  let cut = 0;
  for (const [key, value] of Object.entries(params)) {
    if (FIELDS.has(key)) continue;
    if (kept >= ATTRIBUTE_LIMITS.count || key.length > ATTRIBUTE_LIMITS.keyLength || key === 'source') {
      cut += 1;
      continue;
    }
    kept += 1;
    if (Array.isArray(value)) {
      attributes[key] = value.slice(0, ATTRIBUTE_LIMITS.valuesPerKey).map(typed);
      cut += Math.max(0, value.length - ATTRIBUTE_LIMITS.valuesPerKey);
    } else attributes[key] = typed(value);
  }
  return cut > 0 ? { ...attributes, attributes_dropped: cut } : attributes;
}

function position(params: JsonObject, where: string): { lat: unknown; lon: unknown } {
  const location = single(params.location);
  if (typeof location === 'string' && params.lat === undefined) {
    const [lat, lon] = location.split(',');
    return { lat, lon };
  }
  if (location !== undefined && params.lat === undefined)
    throw badRequest('INVALID_TYPE', `${where}.location must be "latitude,longitude"`);
  return { lat: single(params.lat), lon: single(params.lon) };
}

const truthy = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true' || value === '1' || value === 1;

/**
 * One OsmAnd location as a default-schema record: the form or query parameters of Traccar's OsmAnd
 * protocol (https://www.traccar.org/osmand/), or one item of the traccar-client-sdk's JSON array.
 * Speed is in knots, `heading` is `bearing`, batt is a percent; every other parameter is kept as an
 * attribute in `extras`. A request without a timestamp is a point at its arrival, identified as
 * osmand-untimed.ts decides (`untimedUuid`: a retry is the same record, a repeated report a new one).
 */
export function osmandRecord(
  params: JsonObject,
  deviceId: string,
  where: string,
  receivedAt: number,
  untimedUuid?: string,
): JsonObject {
  if (!isObject(params)) throw badRequest('INVALID_RECORD', `${where} must be an object of OsmAnd parameters`);
  const { lat, lon } = position(params, where);
  const latitude = looseFinite(lat, `${where}.lat`);
  const longitude = looseFinite(lon, `${where}.lon`);
  const rawTime = single(params.timestamp);
  const timestamp = rawTime === undefined || rawTime === '' ? null : isoTime(rawTime, `${where}.timestamp`);
  const speed = looseFinite(single(params.speed), `${where}.speed`);
  const battery = looseFinite(single(params.batt), `${where}.batt`);
  const heading = single(params.bearing) ?? single(params.heading);
  return {
    uuid:
      timestamp === null
        ? (untimedUuid ?? deriveUuid('osmand-untimed', deviceId, params, receivedAt))
        : deriveUuid('osmand', deviceId, Date.parse(timestamp), latitude, longitude),
    timestamp: timestamp ?? new Date(receivedAt).toISOString(),
    coords: defined({
      latitude,
      longitude,
      accuracy: looseFinite(single(params.accuracy), `${where}.accuracy`),
      speed: speed === undefined ? undefined : speed * KNOTS_TO_MS,
      heading: looseFinite(heading, `${where}.bearing`),
      altitude: looseFinite(single(params.altitude), `${where}.altitude`),
    }),
    battery: defined({
      level: battery === undefined ? undefined : battery / 100,
      is_charging: truthy(single(params.charge)),
    }),
    extras: { source: 'osmand', ...attributesOf(params) },
  };
}
