import type { GeofencePresence } from '@waypost/sdk/internal';
import type { Queryable, SqlValue } from '../db/database.js';
import type { RawEventState } from '../store/ingest-devices.js';
import type { TrackPoint } from '../tracks/split-trips.js';
import type { TripState } from '../tracks/trip-tracker.js';
import { emptyDeviceState, type DeviceEventState } from './evaluate-device.js';

/** A device's evaluation state as kept on its devices row (event_cursor, event_state, event_silent_since). */
export interface StoredDeviceState {
  deviceId: string;
  /** The newest recorded time evaluated in order (records before it are late), null before any. */
  cursor: number | null;
  state: DeviceEventState;
  /** When device.silent was sent for it (server time), null while it reports. */
  silentSince: number | null;
}

/**
 * The states this process last wrote (rawState), each with its text: a device uploading again
 * finds its row holding that very text, and its state is taken from here instead of parsed again
 * (a JSON.parse per device per commit). Taken out when used (evaluation changes it in place), put
 * back by the next write; a transaction rolled back leaves the row at a text no entry holds.
 */
const written = new Map<string, { text: string; state: DeviceEventState }>();
/** Devices remembered at most (the oldest written is forgotten first). */
const MAX_WRITTEN = 10_000;

/** A device's state from what lockDevices read (null: never evaluated, an empty one). */
export function parseDeviceState(deviceId: string, raw: RawEventState | null): StoredDeviceState {
  const kept = written.get(deviceId);
  if (kept) written.delete(deviceId);
  if (raw === null) return { deviceId, cursor: null, state: emptyDeviceState(), silentSince: null };
  return {
    deviceId,
    cursor: raw.cursor,
    state: kept?.text === raw.state ? kept.state : (JSON.parse(raw.state) as DeviceEventState),
    silentSince: raw.silentSince,
  };
}

/** The state as the devices row keeps it (what lockDevices reads back). */
export function rawState(s: StoredDeviceState): RawEventState {
  const stored = storedForm(s.state);
  const text = JSON.stringify(stored);
  written.delete(s.deviceId);
  if (written.size >= MAX_WRITTEN) written.delete(written.keys().next().value!);
  written.set(s.deviceId, { text, state: stored });
  return { cursor: s.cursor, state: text, silentSince: s.silentSince };
}

/** Only what a trip point is (the evaluation's points also carry their uuid and record). */
const pointJson = (p: TrackPoint | null): TrackPoint | null => (p === null ? null : { t: p.t, lat: p.lat, lon: p.lon });

/**
 * What the stored JSON holds, as new objects (nothing shared with `state`): the presences (only
 * geofences the device is inside) and the trip, its points without their uuid and record. Plain
 * numbers, booleans and nulls: JSON.parse of its JSON gives an equal object.
 */
function storedForm(state: DeviceEventState): DeviceEventState {
  // fromEntries defines each key as JSON.parse does (an identifier "__proto__" included).
  const fences: Record<string, GeofencePresence> = Object.fromEntries(
    Object.entries(state.fences).map(([id, presence]) => [id, { ...presence }]),
  );
  const trip: TripState = {
    ...state.trip,
    first: pointJson(state.trip.first),
    anchor: pointJson(state.trip.anchor),
    last: pointJson(state.trip.last),
  };
  return { fences, trip };
}

/** The state as stored: JSON of the presences (only geofences the device is inside) and the trip. */
export function serializeState(state: DeviceEventState): string {
  return JSON.stringify(storedForm(state));
}

const UPDATE_ONE = `UPDATE devices SET event_cursor = ?, event_state = ?, event_silent_since = ? WHERE id = ?`;
const UPDATE_ALL = `UPDATE devices SET event_cursor = r.cursor, event_state = r.state, event_silent_since = r.silent_since
  FROM json_to_recordset(CAST(? AS json)) AS r (device_id TEXT, cursor BIGINT, state TEXT, silent_since BIGINT)
  WHERE devices.id = r.device_id`;

/**
 * Writes the states (the ingest path on PostgreSQL writes them in its insert statement instead).
 * The caller holds the devices' locks (lockDevices).
 */
export async function saveDeviceStates(db: Queryable, states: readonly StoredDeviceState[]): Promise<void> {
  if (states.length === 0) return;
  if (db.runEach) {
    // SQLite: one prepared statement run per device, an in-process call each.
    await db.runEach(UPDATE_ONE, states.length, (i): SqlValue[] => {
      const s = states[i]!;
      return [s.cursor, serializeState(s.state), s.silentSince, s.deviceId];
    });
    return;
  }
  // PostgreSQL: one statement (and one round trip) for all of them.
  await db.run(UPDATE_ALL, [statesJson(states)]);
}

/** The states as one JSON array, for PostgreSQL's one ingest statement (insert-with-totals.ts). */
export const statesJson = (states: readonly StoredDeviceState[]): string =>
  JSON.stringify(
    states.map((s) => ({
      device_id: s.deviceId,
      cursor: s.cursor,
      state: serializeState(s.state),
      silent_since: s.silentSince,
    })),
  );
