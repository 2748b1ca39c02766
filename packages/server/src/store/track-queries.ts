import type { Queryable, SqlValue } from '../db/database.js';
import type { TrackPoint } from '../tracks/split-trips.js';

/** A device and an optional time window (epoch ms, inclusive). */
export interface DeviceRange {
  deviceId: string;
  from: number | null;
  to: number | null;
}

function whereOf(range: DeviceRange): { where: string; params: SqlValue[] } {
  const where = ['device_id = ?'];
  const params: SqlValue[] = [range.deviceId];
  if (range.from !== null) {
    where.push('recorded_at >= ?');
    params.push(range.from);
  }
  if (range.to !== null) {
    where.push('recorded_at <= ?');
    params.push(range.to);
  }
  return { where: where.join(' AND '), params };
}

/**
 * The newest `limit` positions in the range, returned oldest first (a track is drawn in time order).
 * Columns come out named as TrackPoint's fields, so rows need no copying.
 */
export async function trackPoints(db: Queryable, range: DeviceRange, limit: number): Promise<TrackPoint[]> {
  const { where, params } = whereOf(range);
  const rows = await db.query<TrackPoint & Record<string, unknown>>(
    `SELECT recorded_at AS t, latitude AS lat, longitude AS lon FROM locations
     WHERE ${where} AND latitude IS NOT NULL ORDER BY recorded_at DESC, id DESC LIMIT ?`,
    [...params, limit],
  );
  return rows.reverse();
}

export async function countRecords(db: Queryable, range: DeviceRange): Promise<number> {
  const { where, params } = whereOf(range);
  const rows = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM locations WHERE ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

export interface StoredRow {
  id: number;
  uuid: string;
  recorded_at: number;
  received_at: number;
  latitude: number | null;
  longitude: number | null;
  record: string;
}

/** Where a page of records ends: the next page starts strictly older than this (time, then id). */
export interface PageCursor {
  recordedAt: number;
  id: number;
}

/** One page of records, newest first; keyset paging, so a deep page costs what the first one does. */
export async function recordPage(
  db: Queryable,
  range: DeviceRange,
  before: PageCursor | null,
  limit: number,
): Promise<StoredRow[]> {
  const { where, params } = whereOf(range);
  const after = before ? ' AND (recorded_at < ? OR (recorded_at = ? AND id < ?))' : '';
  if (before) params.push(before.recordedAt, before.recordedAt, before.id);
  return db.query<StoredRow & Record<string, unknown>>(
    `SELECT id, uuid, recorded_at, received_at, latitude, longitude, record FROM locations
     WHERE ${where}${after} ORDER BY recorded_at DESC, id DESC LIMIT ?`,
    [...params, limit],
  );
}

/** The event kinds drawn as markers on the map. */
export const MARKER_EVENTS = ['motionchange', 'geofence'] as const;

/** Motion-change and geofence records in the range, newest first. */
export async function eventRecords(db: Queryable, range: DeviceRange, limit: number): Promise<StoredRow[]> {
  const { where, params } = whereOf(range);
  return db.query<StoredRow & Record<string, unknown>>(
    `SELECT id, uuid, recorded_at, received_at, latitude, longitude, record FROM locations
     WHERE ${where} AND event IN (${MARKER_EVENTS.map(() => '?').join(', ')})
     ORDER BY recorded_at DESC, id DESC LIMIT ?`,
    [...params, ...MARKER_EVENTS, limit],
  );
}
