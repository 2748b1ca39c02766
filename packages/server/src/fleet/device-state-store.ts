import type { Queryable, SqlValue } from '../db/database.js';
import type { RawEventState } from '../store/devices.js';
import type { TrackPoint } from '../tracks/split-trips.js';
import type { TripState } from '../tracks/trip-tracker.js';
import { emptyDeviceState, type DeviceEventState } from './evaluate-device.js';

/** A device's evaluation state as kept in device_event_state. */
export interface StoredDeviceState {
  deviceId: string;
  /** The newest recorded time evaluated in order (records before it are late), null before any. */
  cursor: number | null;
  state: DeviceEventState;
  /** When device.silent was sent for it (server time), null while it reports. */
  silentSince: number | null;
}

/** A device's state from what lockDevices read (null: never evaluated, an empty one). */
export function parseDeviceState(deviceId: string, raw: RawEventState | null): StoredDeviceState {
  if (raw === null) return { deviceId, cursor: null, state: emptyDeviceState(), silentSince: null };
  return {
    deviceId,
    cursor: raw.cursor,
    state: JSON.parse(raw.state) as DeviceEventState,
    silentSince: raw.silentSince,
  };
}

/** Only what a trip point is (the evaluation's points also carry their uuid and record). */
const pointJson = (p: TrackPoint | null): TrackPoint | null => (p === null ? null : { t: p.t, lat: p.lat, lon: p.lon });

/** The state as stored: JSON of the presences (only geofences the device is inside) and the trip. */
export function serializeState(state: DeviceEventState): string {
  const trip: TripState = {
    ...state.trip,
    first: pointJson(state.trip.first),
    anchor: pointJson(state.trip.anchor),
    last: pointJson(state.trip.last),
  };
  return JSON.stringify({ fences: state.fences, trip });
}

/** A state row's values: (device_id, cursor, state, silent_since). */
export const stateParams = (s: StoredDeviceState): SqlValue[] => [
  s.deviceId,
  s.cursor,
  serializeState(s.state),
  s.silentSince,
];

const UPSERT = `INSERT INTO device_event_state (device_id, cursor, state, silent_since) VALUES (?, ?, ?, ?)
  ON CONFLICT (device_id) DO UPDATE SET cursor = excluded.cursor, state = excluded.state, silent_since = excluded.silent_since`;
const PER_STATEMENT = 250;

/** Writes the states (the ingest path on PostgreSQL writes them in its insert statement instead). */
export async function saveDeviceStates(db: Queryable, states: readonly StoredDeviceState[]): Promise<void> {
  if (states.length === 0) return;
  if (db.runEach) {
    await db.runEach(UPSERT, states.map(stateParams));
    return;
  }
  for (let start = 0; start < states.length; start += PER_STATEMENT) {
    const chunk = states.slice(start, start + PER_STATEMENT);
    await db.run(
      `INSERT INTO device_event_state (device_id, cursor, state, silent_since) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (device_id) DO UPDATE SET cursor = excluded.cursor, state = excluded.state, silent_since = excluded.silent_since`,
      chunk.flatMap(stateParams),
    );
  }
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
