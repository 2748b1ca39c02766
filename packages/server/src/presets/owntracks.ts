import type { IncomingHttpHeaders } from 'node:http';
import { badRequest } from '../errors.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import type { Translator } from '../ingest/verdicts.js';
import { movingOf } from './motion-hints.js';
import { defined, finite, isObject, isoTime, type JsonObject } from './record-parts.js';

export const isOwnTracks = (body: unknown): body is JsonObject => isObject(body) && typeof body._type === 'string';

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;

const header = (headers: IncomingHttpHeaders, name: string): string | null => {
  const value = headers[name];
  return text(Array.isArray(value) ? value[0] : value);
};

/**
 * OwnTracks' device, named as the apps and the OwnTracks Recorder name it
 * (https://owntracks.org/booklet/tech/http/): the user and device of the `X-Limit-U` / `X-Limit-D`
 * headers, else of `?u=&d=`, else of the message's `topic` (owntracks/<user>/<device>), as
 * `<user>-<device>`. A user without a device name is `<user>-<tid>`. Only a message that names no
 * user at all falls back to its two-letter tracker id `tid` alone (two such users with the same
 * initials share it: name the user and device in the app's Identification settings).
 */
export function ownTracksDevice(message: JsonObject, headers: IncomingHttpHeaders, query: JsonObject): string | null {
  const topic = text(message.topic)
    ?.replace(/^owntracks\//, '')
    .split('/');
  const user = header(headers, 'x-limit-u') ?? text(query.u) ?? (topic && topic.length > 1 ? topic[0]! : null);
  const device =
    header(headers, 'x-limit-d') ?? text(query.d) ?? (topic && topic.length > 1 ? topic.slice(1).join('-') : null);
  const tid = text(message.tid);
  if (user !== null) {
    const second = device ?? tid;
    return second === null ? user : `${user}-${second}`;
  }
  if (topic && topic.length === 1) return topic[0]!;
  return device ?? tid;
}

/** The name of a message type in an error message (the type is the sender's text). */
const typeName = (value: unknown): string =>
  JSON.stringify(typeof value === 'string' ? value.slice(0, 40) : value) ?? '';

/** OwnTracks `bs`: 0 unknown, 1 unplugged, 2 charging, 3 full (on its charger). */
const CHARGING: Record<string, boolean | undefined> = { '1': false, '2': true, '3': true };

/**
 * An OwnTracks message as a default-schema record (https://owntracks.org/booklet/tech/json/).
 * A `location`: tst in epoch seconds, vel in km/h (to m/s), acc, alt, cog, vac, batt (percent),
 * bs 2 or 3 charging (3: full, on its charger), motionactivities as is_moving; `m` (monitoring
 * mode) and `conn` stay in `source`, read when it goes quiet (presets/motion-hints.ts). The apps count an answer as delivered (iOS even a 4xx), so nothing here refuses
 * the request: a location that cannot be stored (no tst, no position) is quarantined with why, an
 * encrypted one too (this server holds no key), and every other type (transition, waypoint(s),
 * lwt, card, status, steps, configuration...) is kept in quarantine as NOT_A_POSITION, visible
 * and never drawn on a track. `deviceName` is the name as sent when the device id had to cut it.
 */
function ownTracksRecord(message: unknown, path: string, deviceId: string, deviceName: string | null): unknown {
  if (!isObject(message)) throw badRequest('INVALID_RECORD', `${path} must be an OwnTracks JSON object`);
  if (message._type === 'encrypted')
    throw badRequest('ENCRYPTED', 'An encrypted OwnTracks message: this server holds no key to read it');
  if (message._type !== 'location')
    throw badRequest(
      'NOT_A_POSITION',
      `An OwnTracks ${typeName(message._type)} message is no track point: kept here as sent (credentials redacted)`,
    );
  if (typeof message.tst !== 'number')
    throw badRequest('INVALID_TIMESTAMP', `OwnTracks tst must be epoch seconds, got ${JSON.stringify(message.tst)}`);
  if (typeof message.lat !== 'number' || typeof message.lon !== 'number')
    throw badRequest('INVALID_TYPE', 'OwnTracks lat and lon must be numbers');
  const vel = finite(message.vel);
  const batt = finite(message.batt);
  return {
    uuid: deriveUuid('owntracks', deviceId, message.tst, message.lat, message.lon),
    timestamp: isoTime(message.tst, 'OwnTracks tst'),
    coords: defined({
      latitude: message.lat,
      longitude: message.lon,
      accuracy: finite(message.acc),
      speed: vel === undefined ? undefined : vel / 3.6,
      heading: finite(message.cog),
      altitude: finite(message.alt),
      altitude_accuracy: finite(message.vac),
    }),
    // iOS's motion activities, when it sends them (`motionactivities`): `["stationary"]` is parked.
    ...defined({ is_moving: movingOf(message.motionactivities) }),
    battery: defined({
      level: batt === undefined ? undefined : batt / 100,
      is_charging: CHARGING[String(message.bs)],
    }),
    extras: { source: 'owntracks', ...(deviceName === null ? {} : { device_name: deviceName }) },
    source: message,
  };
}

/** A location (stored, or quarantined when it cannot be); any other type is kept only in quarantine. */
export const isOwnTracksLocation = (message: JsonObject): boolean =>
  message._type === 'location' || message._type === 'encrypted';

/**
 * The translator of one device's OwnTracks messages. A message's identity is its device and whole
 * content: a waypoint's BLE beacon `uuid` names the beacon, not the message, so it must not
 * make two waypoints of one beacon one quarantine row.
 */
export const ownTracksTranslator = (deviceId: string, deviceName: string | null = null): Translator => ({
  record: (value, path) => ownTracksRecord(value, path, deviceId, deviceName),
  identity: (value) => deriveUuid('owntracks', deviceId, value),
});
