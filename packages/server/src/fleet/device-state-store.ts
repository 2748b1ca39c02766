import type { Queryable, SqlValue } from '../db/database.js';
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

const PER_STATEMENT = 250;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The states of these devices; a device never evaluated gets an empty one. */
export async function loadDeviceStates(db: Queryable, ids: readonly string[]): Promise<Map<string, StoredDeviceState>> {
  const states = new Map<string, StoredDeviceState>();
  for (const id of ids) states.set(id, { deviceId: id, cursor: null, state: emptyDeviceState(), silentSince: null });
  for (const chunk of chunks(ids, PER_STATEMENT)) {
    const rows = await db.query<{
      device_id: string;
      cursor: number | null;
      state: string;
      silent_since: number | null;
    }>(
      `SELECT device_id, cursor, state, silent_since FROM device_event_state WHERE device_id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const row of rows) {
      states.set(row.device_id, {
        deviceId: row.device_id,
        cursor: row.cursor === null ? null : Number(row.cursor),
        state: JSON.parse(row.state) as DeviceEventState,
        silentSince: row.silent_since === null ? null : Number(row.silent_since),
      });
    }
  }
  return states;
}

export async function saveDeviceStates(db: Queryable, states: readonly StoredDeviceState[]): Promise<void> {
  for (const chunk of chunks(states, PER_STATEMENT)) {
    const params: SqlValue[] = chunk.flatMap((s) => [s.deviceId, s.cursor, JSON.stringify(s.state), s.silentSince]);
    await db.run(
      `INSERT INTO device_event_state (device_id, cursor, state, silent_since) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (device_id) DO UPDATE SET cursor = excluded.cursor, state = excluded.state, silent_since = excluded.silent_since`,
      params,
    );
  }
}
