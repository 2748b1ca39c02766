import { badRequest } from '../errors.js';
import { extractBodies, type FoundRecord } from '../ingest/extract.js';
import type { Translator } from '../ingest/verdicts.js';
import { osmandDevice, osmandRecord } from './osmand-params.js';
import { isObject, type JsonObject } from './record-parts.js';

/** The records of a request that name one device (null: the request names none itself). */
export interface TrackerGroup {
  named: string | null;
  found: FoundRecord[];
  /** How its records become default-schema records (none: they are default-schema records). */
  translator?: Translator;
}

/**
 * OsmAnd parameters, as Traccar reads them, translated into a default-schema record; `untimed`:
 * the uuid of each parameter object without a timestamp (osmand-untimed.ts), filled in before the
 * records are translated.
 */
export function osmandTranslator(receivedAt: number, untimed: Map<unknown, string> = new Map()): Translator {
  return {
    record: (value, path) =>
      osmandRecord(
        value as JsonObject,
        isObject(value) ? (osmandDevice(value) ?? '') : '',
        path,
        receivedAt,
        untimed.get(value),
      ),
  };
}

/** Whether a JSON body is the background-geolocation SDK's own format: `{"location": ..., "device_id"}`. */
const isLocationBody = (value: unknown): boolean =>
  isObject(value) && (isObject(value.location) || Array.isArray(value.location) || Array.isArray(value.locations));

/** Groups items by the device each names, in first-seen order. */
function byNamedDevice(items: { named: string | null; found: FoundRecord }[], translator: Translator): TrackerGroup[] {
  const groups = new Map<string | null, TrackerGroup>();
  for (const { named, found } of items) {
    const group = groups.get(named) ?? { named, found: [], translator };
    group.found.push(found);
    groups.set(named, group);
  }
  return [...groups.values()];
}

/**
 * The records of an OsmAnd-protocol request, in every format Traccar's own decoder takes
 * (https://www.traccar.org/osmand/) and the Traccar clients send:
 * - JSON `{"location": {...}, "device_id": "..."}` (Traccar Client 9+, the background-geolocation
 *   SDK's native format): already Waypost's default schema, speed in m/s;
 * - a JSON array of parameter objects `[{id, lat, lon, timestamp, speed (knots), ...}]` (the
 *   traccar-client-sdk's JSON mode);
 * - query or form parameters (OsmAnd, GPSLogger, traccar-client-sdk's default), and a JSON object
 *   of the same parameters.
 */
export function osmandGroups(
  body: unknown,
  query: JsonObject,
  receivedAt: number,
  untimed?: Map<unknown, string>,
): TrackerGroup[] {
  const translator = osmandTranslator(receivedAt, untimed);
  if (isLocationBody(body) || (Array.isArray(body) && body.length > 0 && body.every(isLocationBody))) {
    return extractBodies(body).map((b) => ({ named: b.deviceId, found: b.records }));
  }
  if (Array.isArray(body)) {
    if (body.length === 0) throw badRequest('NO_RECORDS', 'The JSON array holds no OsmAnd locations');
    return byNamedDevice(
      body.map((item, i) => ({
        named: isObject(item) ? osmandDevice(item) : null,
        found: { value: item, path: `body[${i}]` },
      })),
      translator,
    );
  }
  const params = { ...(isObject(body) ? body : {}), ...query };
  if (Object.keys(params).length === 0)
    throw badRequest('NO_RECORDS', 'An OsmAnd request names id, lat, lon and timestamp (query, form or JSON)');
  return [{ named: osmandDevice(params), found: [{ value: params, path: 'osmand' }], translator }];
}
