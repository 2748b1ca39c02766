import type { Queryable, SqlValue } from '../db/database.js';
import { FAN, HOUR_MS, type Bucket } from './buckets.js';
import { markHoursSql, marksInStatements } from './schema.js';
import type { Fix, LevelSegments } from './segments.js';

const ROWS_PER_INSERT = 200;

/** A stale bucket and the mark it had when read: the builder clears it only if it is unchanged. */
export interface DirtyBucket extends Bucket {
  deviceId: string;
  mark: number;
}

/** Buckets marked per statement (two parameters each). */
const MARKS_PER_STATEMENT = 250;
const MARK_ONE = markHoursSql(1);

/**
 * Marks stale the hours of positions just inserted or deleted, and each next hour (its first
 * segment starts from the last fix before it): one bucket once however many positions fall in it.
 * On SQLite the statements that change positions call it (schema.ts, sqliteMarksInTransactions);
 * elsewhere triggers mark, and it does nothing.
 */
export async function markChangedHours(
  tx: Queryable,
  positions: Iterable<{ deviceId: string; recordedAt: number }>,
): Promise<void> {
  if (!marksInStatements(tx)) return;
  // Hours per device as numbers: no key string per position (every stored record passes here).
  const hours = new Map<string, Set<number>>();
  for (const { deviceId, recordedAt } of positions) {
    let ofDevice = hours.get(deviceId);
    if (!ofDevice) hours.set(deviceId, (ofDevice = new Set()));
    const hour = Math.floor(recordedAt / HOUR_MS);
    ofDevice.add(hour).add(hour + 1);
  }
  const all: [string, number][] = [];
  for (const [deviceId, ofDevice] of hours) for (const bucket of ofDevice) all.push([deviceId, bucket]);
  // One prepared single-bucket upsert per bucket where a run is an in-process call (SQLite): a
  // statement per bucket count was one more to prepare at each new count.
  if (tx.runEach) {
    await tx.runEach(MARK_ONE, all.length, (i) => all[i]!);
    return;
  }
  for (let i = 0; i < all.length; i += MARKS_PER_STATEMENT) {
    const part = all.slice(i, i + MARKS_PER_STATEMENT);
    await tx.run(markHoursSql(part.length), part.flat());
  }
}

/** Segment keys as bytes: little-endian doubles (36-bit keys are exact). */
export function encodeSegments(keys: Iterable<number>): Buffer {
  const list = Float64Array.from(keys);
  return Buffer.from(list.buffer, list.byteOffset, list.byteLength);
}

export function decodeInto(bytes: Uint8Array, into: Set<number>): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 0; offset + 8 <= bytes.byteLength; offset += 8) into.add(view.getFloat64(offset, true));
}

/** A device's stale buckets (at most `limit`: past it the caller treats the device as building). */
export async function deviceDirty(db: Queryable, deviceId: string, limit: number): Promise<DirtyBucket[]> {
  const rows = await db.query<{ tier: number; bucket: number; mark: number }>(
    `SELECT tier, bucket, mark FROM track_tile_dirty WHERE device_id = ? LIMIT ?`,
    [deviceId, limit],
  );
  return rows.map((r) => ({ deviceId, tier: Number(r.tier), bucket: Number(r.bucket), mark: Number(r.mark) }));
}

/** Stale buckets of one tier across devices, oldest first, for the builder. */
export async function dirtyOfTier(db: Queryable, tier: number, limit: number): Promise<DirtyBucket[]> {
  const rows = await db.query<{ device_id: string; bucket: number; mark: number }>(
    `SELECT device_id, bucket, mark FROM track_tile_dirty WHERE tier = ? ORDER BY bucket, device_id LIMIT ?`,
    [tier, limit],
  );
  return rows.map((r) => ({ deviceId: r.device_id, tier, bucket: Number(r.bucket), mark: Number(r.mark) }));
}

/** The first and last times of a device's positions (two index probes, one round trip), null when none. */
export async function deviceSpan(db: Queryable, deviceId: string): Promise<[number, number] | null> {
  const where = 'WHERE device_id = ? AND latitude IS NOT NULL';
  const rows = await db.query<{ first: number | null; last: number | null }>(
    `SELECT (SELECT recorded_at FROM locations ${where} ORDER BY recorded_at LIMIT 1) AS first,
            (SELECT recorded_at FROM locations ${where} ORDER BY recorded_at DESC LIMIT 1) AS last`,
    [deviceId, deviceId],
  );
  const { first, last } = rows[0] ?? { first: null, last: null };
  return first === null || last === null ? null : [Number(first), Number(last)];
}

/**
 * Positions with from <= t < until in time order, led by the one fix before `from` (it starts the
 * first segment), at most `limit` (the caller checks for more).
 */
export async function readFixes(
  db: Queryable,
  deviceId: string,
  from: number,
  until: number,
  limit: number,
): Promise<Fix[]> {
  const before = await db.query<Fix & Record<string, unknown>>(
    `SELECT recorded_at AS t, latitude AS lat, longitude AS lon FROM locations
     WHERE device_id = ? AND recorded_at < ? AND latitude IS NOT NULL ORDER BY recorded_at DESC, id DESC LIMIT 1`,
    [deviceId, from],
  );
  const rows = await db.query<Fix & Record<string, unknown>>(
    `SELECT recorded_at AS t, latitude AS lat, longitude AS lon FROM locations
     WHERE device_id = ? AND recorded_at >= ? AND recorded_at < ? AND latitude IS NOT NULL
     ORDER BY recorded_at, id LIMIT ?`,
    [deviceId, from, until, limit],
  );
  const fixes = [...before, ...rows];
  for (const f of fixes) f.t = Number(f.t);
  return fixes;
}

/** The stored rows of one tile for these buckets: one query, a range per tier. */
export async function readStoredTile(
  db: Queryable,
  deviceId: string,
  level: number,
  x: number,
  y: number,
  buckets: readonly Bucket[],
): Promise<Uint8Array[]> {
  if (buckets.length === 0) return [];
  // The buckets as a list joined to the table, each an exact seek on the unique index. A SELECT per
  // tier with \`bucket IN (...)\` let PostgreSQL's planner, for more than a couple of buckets, seek by
  // tier alone and filter every bucket of the tier (2,000 pages for one tile at 50M records).
  const list = buckets.map(() => '(CAST(? AS INTEGER), CAST(? AS BIGINT))').join(', ');
  const sql = `WITH wanted (tier, bucket) AS (VALUES ${list})
    SELECT t.segments FROM wanted w JOIN track_tiles t ON t.device_id = ? AND t.tier = w.tier AND t.bucket = w.bucket
      AND t.level = ? AND t.x = ? AND t.y = ?`;
  const params: SqlValue[] = [...buckets.flatMap((b) => [b.tier, b.bucket]), deviceId, level, x, y];
  const rows = await db.query<{ segments: Uint8Array }>(sql, params);
  return rows.map((r) => r.segments);
}

/** Every tile row of a bucket's children (tier - 1), for the builder's union. */
export async function childRows(
  db: Queryable,
  deviceId: string,
  tier: number,
  bucket: number,
): Promise<{ level: number; x: number; y: number; segments: Uint8Array }[]> {
  const rows = await db.query<{ level: number; x: number; y: number; segments: Uint8Array }>(
    `SELECT level, x, y, segments FROM track_tiles WHERE device_id = ? AND tier = ? AND bucket >= ? AND bucket < ?`,
    [deviceId, tier - 1, bucket * FAN, (bucket + 1) * FAN],
  );
  return rows.map((r) => ({ ...r, level: Number(r.level), x: Number(r.x), y: Number(r.y) }));
}

/** Rows of one bucket's tiles, ready for insertion. */
export function bucketRows(
  deviceId: string,
  tier: number,
  bucket: number,
  levels: readonly LevelSegments[],
): SqlValue[][] {
  const rows: SqlValue[][] = [];
  levels.forEach((tiles, level) => {
    const side = 2 ** level;
    for (const [tile, keys] of tiles) {
      if (keys.size === 0) continue;
      const x = Math.floor(tile / side);
      rows.push([deviceId, level, x, tile - x * side, tier, bucket, encodeSegments(keys)]);
    }
  });
  return rows;
}

/**
 * Replaces the rows of a device's buckets of one tier with `rows`, clears their stale marks where
 * unchanged since read, and marks the buckets above stale: a few statements for many buckets.
 */
export async function replaceBuckets(
  tx: Queryable,
  dirty: readonly DirtyBucket[],
  rows: readonly SqlValue[][],
  parentTier: number | null,
): Promise<void> {
  if (dirty.length === 0) return;
  const { deviceId, tier } = dirty[0]!;
  const list = dirty.map(() => '?').join(', ');
  const buckets = dirty.map((d) => d.bucket);
  await tx.run(`DELETE FROM track_tiles WHERE device_id = ? AND tier = ? AND bucket IN (${list})`, [
    deviceId,
    tier,
    ...buckets,
  ]);
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    await tx.run(
      `INSERT INTO track_tiles (device_id, level, x, y, tier, bucket, segments) VALUES ${part
        .map(() => '(?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      part.flat(),
    );
  }
  await tx.run(
    `DELETE FROM track_tile_dirty WHERE device_id = ? AND tier = ? AND (${dirty.map(() => '(bucket = ? AND mark = ?)').join(' OR ')})`,
    [deviceId, tier, ...dirty.flatMap((d) => [d.bucket, d.mark])],
  );
  if (parentTier === null) return;
  const parents = [...new Set(buckets.map((b) => Math.floor(b / FAN)))].sort((a, b) => a - b);
  await tx.run(
    `INSERT INTO track_tile_dirty (device_id, tier, bucket, mark) VALUES ${parents.map(() => '(?, ?, ?, 1)').join(', ')}
     ON CONFLICT (device_id, tier, bucket) DO UPDATE SET mark = track_tile_dirty.mark + 1`,
    parents.flatMap((p) => [deviceId, parentTier, p]),
  );
}

export const hourStart = (hour: number): number => hour * HOUR_MS;
