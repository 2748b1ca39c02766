import type { Queryable, SqlValue } from '../db/database.js';
import type { StoredRecord } from '../ingest/normalize.js';
import type { IngestCounts } from './devices.js';

/** Rows per INSERT statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 250;
const COLUMNS = 7;

const insertSql = (rows: number): string =>
  `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record) VALUES ${Array.from(
    { length: rows },
    () => `(${Array(COLUMNS).fill('?').join(', ')})`,
  ).join(', ')} ON CONFLICT (device_id, uuid) DO NOTHING RETURNING uuid`;

/**
 * Inserts records once per (device, uuid): the database's unique constraint decides, so several
 * processes sharing it never store a uuid twice. Rows go in uuid order, so concurrent requests
 * with overlapping uuids take their row locks in the same order and cannot deadlock.
 */
export async function insertLocations(
  db: Queryable,
  deviceId: string,
  records: StoredRecord[],
  receivedAt: number,
): Promise<IngestCounts> {
  const sorted = [...records].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
  const stored = new Set<string>();
  for (let start = 0; start < sorted.length; start += ROWS_PER_STATEMENT) {
    const chunk = sorted.slice(start, start + ROWS_PER_STATEMENT);
    const params: SqlValue[] = [];
    for (const r of chunk) {
      params.push(deviceId, r.uuid, r.recordedAt, r.latitude, r.longitude, receivedAt, JSON.stringify(r.record));
    }
    for (const row of await db.query<{ uuid: string }>(insertSql(chunk.length), params)) stored.add(row.uuid);
  }
  let last: IngestCounts['last'] = null;
  for (const r of records) {
    if (!stored.has(r.uuid) || r.latitude === null || r.longitude === null) continue;
    if (!last || r.recordedAt >= last.recordedAt)
      last = { latitude: r.latitude, longitude: r.longitude, recordedAt: r.recordedAt };
  }
  return { stored: stored.size, duplicates: records.length - stored.size, last };
}

export interface LocationRow {
  uuid: string;
  recorded_at: number;
  latitude: number | null;
  longitude: number | null;
  record: string;
}

export async function queryLocations(
  db: Queryable,
  deviceId: string,
  range: { from: number | null; to: number | null; limit: number },
): Promise<LocationRow[]> {
  const where = ['device_id = ?'];
  const params: SqlValue[] = [deviceId];
  if (range.from !== null) {
    where.push('recorded_at >= ?');
    params.push(range.from);
  }
  if (range.to !== null) {
    where.push('recorded_at <= ?');
    params.push(range.to);
  }
  params.push(range.limit);
  return db.query<LocationRow & Record<string, unknown>>(
    `SELECT uuid, recorded_at, latitude, longitude, record FROM locations WHERE ${where.join(' AND ')}
     ORDER BY recorded_at ASC, id ASC LIMIT ?`,
    params,
  );
}
