import type { Queryable, SqlValue } from '../db/database.js';
import type { LocationRow } from './locations.js';

/** A place in a device's records in export order (recorded time, then arrival): a page's end. */
export interface LocationKey {
  recordedAt: number;
  id: number;
}

export interface LocationRange {
  deviceId: string;
  from: number | null;
  to: number | null;
  /** Only records after this key (the previous page's end). */
  after: LocationKey | null;
  /** Only records up to this key, inclusive. */
  until: LocationKey | null;
}

export type KeyedLocationRow = LocationRow & { id: number };

function whereOf(range: LocationRange): { sql: string; params: SqlValue[] } {
  const where = ['device_id = ?'];
  const params: SqlValue[] = [range.deviceId];
  const add = (condition: string, ...values: SqlValue[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (range.from !== null) add('recorded_at >= ?', range.from);
  if (range.to !== null) add('recorded_at <= ?', range.to);
  // Row values compare in index order (device_id, recorded_at, id): each page is an index range.
  if (range.after) add('(recorded_at, id) > (?, ?)', range.after.recordedAt, range.after.id);
  if (range.until) add('(recorded_at, id) <= (?, ?)', range.until.recordedAt, range.until.id);
  return { sql: where.join(' AND '), params };
}

const keyOf = (row: { recorded_at: unknown; id: unknown }): LocationKey => ({
  recordedAt: Number(row.recorded_at),
  id: Number(row.id),
});

/** Up to `limit` records of the range, in export order. */
export async function locationPage(db: Queryable, range: LocationRange, limit: number): Promise<KeyedLocationRow[]> {
  const { sql, params } = whereOf(range);
  return db.query<KeyedLocationRow & Record<string, unknown>>(
    `SELECT id, uuid, recorded_at, latitude, longitude, record, received_at, clock_suspect FROM locations
     WHERE ${sql} ORDER BY recorded_at ASC, id ASC LIMIT ?`,
    [...params, limit],
  );
}

/** The key of the range's n-th record (1-based), or null when it has fewer. */
export async function nthLocationKey(db: Queryable, range: LocationRange, n: number): Promise<LocationKey | null> {
  const { sql, params } = whereOf(range);
  const rows = await db.query<{ recorded_at: number; id: number }>(
    `SELECT recorded_at, id FROM locations WHERE ${sql} ORDER BY recorded_at ASC, id ASC LIMIT 1 OFFSET ?`,
    [...params, n - 1],
  );
  return rows[0] ? keyOf(rows[0]) : null;
}

/** Whether the range has a record after this key. */
export async function hasLocationAfter(db: Queryable, range: LocationRange, key: LocationKey): Promise<boolean> {
  const { sql, params } = whereOf({ ...range, after: key, until: null });
  const rows = await db.query(`SELECT 1 AS found FROM locations WHERE ${sql} LIMIT 1`, params);
  return rows.length > 0;
}

export const keyOfRow = keyOf;

/** A key as an opaque cursor for a client ("<recorded ms>.<id>"), and back (null when not one). */
export const cursorOf = (key: LocationKey): string => `${key.recordedAt}.${key.id}`;
export function keyOfCursor(cursor: string): LocationKey | null {
  const match = /^(-?\d{1,16})\.(\d{1,16})$/.exec(cursor);
  return match ? { recordedAt: Number(match[1]), id: Number(match[2]) } : null;
}
