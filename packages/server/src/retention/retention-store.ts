import type { Queryable, SqlValue } from '../db/database.js';
import { normalizeRanges, type SequenceRange } from '@waypost/sdk/internal';
import { markChangedHours } from '../track-tiles/pyramid-store.js';
import { marksInStatements } from '../track-tiles/schema.js';
import { cutoffOf } from './cutoff.js';
import type { RetentionKind, RetentionOptions } from './retention-options.js';

/**
 * Where each kind lives: its table, the time retention goes by, and whether its rows carry the
 * ledger's sequence numbers. Every one is read through an index that starts with (device_id, time):
 * the locations' is the track index every read uses, so retention adds nothing to ingest's path.
 */
const KIND_TABLES: Record<RetentionKind, { table: string; time: string; sequence: boolean }> = {
  locations: { table: 'locations', time: 'recorded_at', sequence: true },
  quarantine: { table: 'quarantine', time: 'received_at', sequence: true },
  logs: { table: 'logs', time: 'created_at', sequence: false },
  events: { table: 'fleet_events', time: 'at', sequence: false },
};

/** An organization's period as stored (null: it has none of its own, the server's applies). */
export const orgDaysOf = (stored: number | string | null | undefined): number | null =>
  stored === null || stored === undefined ? null : Number(stored);

/** Before any time a row can have: a slice's lower bound before the first. */
export const EARLIEST = Number.MIN_SAFE_INTEGER;

/**
 * The end of the next bounded slice of a device's rows of one kind in [from, cutoff): the time of
 * the row `limit` rows on (read from the index alone), or the cutoff when fewer are left (then
 * `last` is true). A slice never ends where it starts: rows sharing one instant go in one slice.
 */
export async function nextSlice(
  db: Queryable,
  kind: RetentionKind,
  deviceId: string,
  from: number,
  cutoff: number,
  limit: number,
): Promise<{ until: number; last: boolean }> {
  const { table, time } = KIND_TABLES[kind];
  const rows = await db.query<{ t: number }>(
    `SELECT ${time} AS t FROM ${table} WHERE device_id = ? AND ${time} >= ? AND ${time} < ?
     ORDER BY ${time} LIMIT 1 OFFSET ?`,
    [deviceId, from, cutoff, limit],
  );
  if (rows.length === 0) return { until: cutoff, last: true };
  return { until: Math.max(Number(rows[0]!.t), from + 1), last: false };
}

/**
 * Removes a device's rows of one kind in [from, until) (one range delete on the index: about twice
 * as fast as deleting listed ids) and, for locations and quarantine, keeps the sequence numbers
 * removed as expired ranges in the same transaction. Answers how many rows went.
 */
export async function expireSlice(
  tx: Queryable,
  kind: RetentionKind,
  deviceId: string,
  from: number,
  until: number,
  now: number,
): Promise<number> {
  const { table, time, sequence } = KIND_TABLES[kind];
  const positions = kind === 'locations' && marksInStatements(tx);
  const rows = await tx.query<ExpiredRow>(
    `DELETE FROM ${table} WHERE device_id = ? AND ${time} >= ? AND ${time} < ?
     RETURNING device_id, ${sequence ? 'sequence, sequence_epoch' : 'NULL AS sequence, NULL AS sequence_epoch'}${positions ? ', recorded_at, latitude' : ''}`,
    [deviceId, from, until],
  );
  await bookExpired(tx, rows, positions, now);
  return rows.length;
}

/** A row retention removed, as its delete returned it. */
export interface ExpiredRow extends Record<string, unknown> {
  device_id: string;
  sequence: number | null;
  /** The numbering of `sequence` (issue 39), null when none was named. */
  sequence_epoch: string | null;
  recorded_at?: number;
  latitude?: number | null;
}

/**
 * What every retention delete owes in its own transaction: the hours of removed positions marked
 * for the track pyramid (`positions`: on SQLite, where no trigger does it), and each device's
 * removed sequence numbers kept as expired ranges (the ledger names them expired, not missing).
 */
export async function bookExpired(
  tx: Queryable,
  rows: readonly ExpiredRow[],
  positions: boolean,
  now: number,
): Promise<void> {
  if (positions)
    await markChangedHours(
      tx,
      rows
        .filter((r) => r.latitude !== null)
        .map((r) => ({ deviceId: r.device_id, recordedAt: Number(r.recorded_at) })),
    );
  // Per device and numbering: the same number of two numberings is two records.
  const sequences = new Map<string, { deviceId: string; epoch: string | null; list: number[] }>();
  for (const row of rows) {
    if (row.sequence === null) continue;
    const key = `${row.device_id}\u0000${row.sequence_epoch ?? ''}`;
    const entry = sequences.get(key) ?? { deviceId: row.device_id, epoch: row.sequence_epoch, list: [] };
    entry.list.push(Number(row.sequence));
    sequences.set(key, entry);
  }
  const ranges = [...sequences.values()].flatMap(({ deviceId, epoch, list }) =>
    normalizeRanges(list.map((s) => [s, s])).map((range) => ({ deviceId, epoch, range })),
  );
  await insertExpiredRanges(tx, ranges, now);
}

/** Logs uploaded without a device id follow the server's period. */
const ORPHAN_LOGS_SQL = `DELETE FROM logs WHERE id IN (
    SELECT id FROM logs WHERE device_id IS NULL AND created_at < ? ORDER BY created_at LIMIT ?)`;

export async function expireOrphanLogs(tx: Queryable, cutoff: number, limit: number): Promise<number> {
  return tx.run(ORPHAN_LOGS_SQL, [cutoff, limit]);
}

/**
 * Ranges per statement: all the devices of a slice in one (a slice of a fleet's interleaved
 * arrivals touches about every device; a statement per device was 40% of a PostgreSQL slice's time,
 * 50 round trips for one delete), within both databases' parameter limits (5 a range).
 */
const RANGES_PER_STATEMENT = 1000;

async function insertExpiredRanges(
  tx: Queryable,
  ranges: readonly { deviceId: string; epoch: string | null; range: SequenceRange }[],
  now: number,
): Promise<void> {
  for (let start = 0; start < ranges.length; start += RANGES_PER_STATEMENT) {
    const part = ranges.slice(start, start + RANGES_PER_STATEMENT);
    const params: SqlValue[] = part.flatMap(({ deviceId, epoch, range: [first, last] }) => [
      deviceId,
      first,
      last,
      now,
      epoch,
    ]);
    await tx.run(
      `INSERT INTO expired_ranges (device_id, first_sequence, last_sequence, expired_at, sequence_epoch) VALUES ${part
        .map(() => '(?, ?, ?, ?, ?)')
        .join(', ')}`,
      params,
    );
  }
}

/** The sequence ranges retention removed from a device (received or quarantined once), with their numbering. */
export async function readExpiredRanges(
  db: Queryable,
  deviceId: string,
): Promise<{ epoch: string | null; range: SequenceRange; at: number }[]> {
  const rows = await db.query<{
    first_sequence: number;
    last_sequence: number;
    sequence_epoch: string | null;
    expired_at: number;
  }>(`SELECT first_sequence, last_sequence, sequence_epoch, expired_at FROM expired_ranges WHERE device_id = ?`, [
    deviceId,
  ]);
  return rows.map((r) => ({
    epoch: r.sequence_epoch,
    range: [Number(r.first_sequence), Number(r.last_sequence)],
    at: Number(r.expired_at),
  }));
}

export interface RetentionDevice {
  id: string;
  orgDays: number | null;
}

/** One page of devices in id order, each with its organization's own period. */
export async function devicePage(db: Queryable, after: string | null, size: number): Promise<RetentionDevice[]> {
  const rows = await db.query<{ id: string; retention_days: number | null }>(
    `SELECT d.id, o.retention_days FROM devices d LEFT JOIN orgs o ON o.id = d.org_id
     ${after === null ? '' : 'WHERE d.id > ?'} ORDER BY d.id LIMIT ?`,
    after === null ? [size] : [after, size],
  );
  return rows.map((r) => ({ id: r.id, orgDays: orgDaysOf(r.retention_days) }));
}

/** When a device's locations pass retention (its organization's period, or the server's), or null: kept for ever. */
export async function locationCutoffOf(
  db: Queryable,
  options: Pick<RetentionOptions, 'days'>,
  deviceId: string,
  now: number,
): Promise<number | null> {
  const rows = await db.query<{ retention_days: number | null }>(
    `SELECT o.retention_days FROM devices d LEFT JOIN orgs o ON o.id = d.org_id WHERE d.id = ?`,
    [deviceId],
  );
  return cutoffOf('locations', orgDaysOf(rows[0]?.retention_days), options, now);
}
