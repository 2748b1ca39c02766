import type { Queryable, SqlValue } from '../db/database.js';
import type { FleetEvent } from './fleet-event.js';

/** What the history answers for one device: its events, oldest first, and whether older ones in the range were left out. */
export interface DeviceEventHistory {
  events: FleetEvent[];
  truncated: boolean;
}

/**
 * A device's fleet events (fleet_events: every event but `location`) in a device-time range: the
 * newest `limit` of them, answered in device-time order (the order they happened in).
 */
export async function deviceEventHistory(
  db: Queryable,
  range: { deviceId: string; from: number | null; to: number | null },
  limit: number,
): Promise<DeviceEventHistory> {
  const where = ['device_id = ?'];
  const params: SqlValue[] = [range.deviceId];
  if (range.from !== null) {
    where.push('at >= ?');
    params.push(range.from);
  }
  if (range.to !== null) {
    where.push('at <= ?');
    params.push(range.to);
  }
  // One more than asked: whether the range holds older ones than those answered.
  const rows = await db.query<{ body: string }>(
    `SELECT body FROM fleet_events WHERE ${where.join(' AND ')} ORDER BY at DESC, seq DESC LIMIT ?`,
    [...params, limit + 1],
  );
  const truncated = rows.length > limit;
  const newest = truncated ? rows.slice(0, limit) : rows;
  return { events: newest.reverse().map((row) => JSON.parse(row.body) as FleetEvent), truncated };
}
