import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import { normalizeRecord, type StoredRecord } from '../ingest/normalize.js';
import { checkTimestamp } from '../ingest/validation.js';

type JsonObject = Record<string, unknown>;

export const isOwnTracks = (body: unknown): body is JsonObject =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && typeof (body as JsonObject)._type === 'string';

/** OwnTracks' device: `topic` owntracks/<user>/<device> as user-device, else its tracker id `tid`. */
export function ownTracksDevice(message: JsonObject): string | null {
  if (typeof message.topic === 'string' && message.topic.trim() !== '') {
    return message.topic.replace(/^owntracks\//, '').replace(/\//g, '-');
  }
  return typeof message.tid === 'string' && message.tid !== '' ? message.tid : null;
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : -1);

/**
 * An OwnTracks HTTP `location` message as a default-schema record: tst in seconds, vel in km/h
 * (to m/s), acc, alt, cog, batt (percent). Other message types (transition, lwt...) carry no
 * position: null.
 */
export function ownTracksRecord(message: JsonObject, deviceId: string, receivedAt: number): StoredRecord | null {
  if (message._type !== 'location') return null;
  if (typeof message.tst !== 'number')
    throw badRequest('INVALID_TYPE', `OwnTracks tst must be epoch seconds, got ${JSON.stringify(message.tst)}`);
  if (typeof message.lat !== 'number' || typeof message.lon !== 'number') {
    throw badRequest('INVALID_TYPE', 'OwnTracks lat and lon must be numbers');
  }
  const timestamp = new Date(checkTimestamp(message.tst * 1000, 'OwnTracks tst', receivedAt)).toISOString();
  const record = {
    uuid: deriveUuid('owntracks', deviceId, message.tst, message.lat, message.lon),
    timestamp,
    coords: {
      latitude: message.lat,
      longitude: message.lon,
      accuracy: num(message.acc),
      speed: typeof message.vel === 'number' ? message.vel / 3.6 : -1,
      heading: num(message.cog),
      altitude: num(message.alt),
    },
    battery: { level: typeof message.batt === 'number' ? message.batt / 100 : -1, is_charging: message.bs === 2 },
    extras: { source: 'owntracks' },
    source: message,
  };
  return normalizeRecord({ value: record, path: 'owntracks' }, receivedAt);
}
