import type { Queryable, SqlValue } from '../db/database.js';
import { normalizeRanges, type SequenceRange } from '@waypost/sdk/internal';
import type { RetentionKind } from './retention-options.js';

/**
 * One bounded delete per kind, through an index that starts with device_id (no index is added to
 * ingest's path). A location goes only once both its recorded and its received time are past the
 * cutoff: a record from a device whose clock said 1970 is kept as long as one received today.
 * Locations and quarantined records give back their sequence numbers: the ledger calls them expired.
 */
const DELETE_SQL: Record<RetentionKind, string> = {
  locations: `DELETE FROM locations WHERE id IN (
      SELECT id FROM locations WHERE device_id = ? AND recorded_at < ? AND received_at < ? ORDER BY recorded_at LIMIT ?)
    RETURNING sequence`,
  quarantine: `DELETE FROM quarantine WHERE id IN (
      SELECT id FROM quarantine WHERE device_id = ? AND received_at < ? ORDER BY received_at LIMIT ?)
    RETURNING sequence`,
  logs: `DELETE FROM logs WHERE id IN (
      SELECT id FROM logs WHERE device_id = ? AND created_at < ? ORDER BY created_at LIMIT ?)
    RETURNING NULL AS sequence`,
  events: `DELETE FROM fleet_events WHERE seq IN (
      SELECT seq FROM fleet_events WHERE device_id = ? AND at < ? ORDER BY at LIMIT ?)
    RETURNING NULL AS sequence`,
};

/** Logs uploaded without a device id follow the server's period. */
const ORPHAN_LOGS_SQL = `DELETE FROM logs WHERE id IN (
    SELECT id FROM logs WHERE device_id IS NULL AND created_at < ? ORDER BY created_at LIMIT ?)`;

/** Removes at most `limit` rows of one kind of a device older than `cutoff`; returns how many. */
export async function expireBatch(
  tx: Queryable,
  kind: RetentionKind,
  deviceId: string,
  cutoff: number,
  limit: number,
  now: number,
): Promise<number> {
  // Locations compare both of their times with the cutoff; the other kinds have one.
  const params = kind === 'locations' ? [deviceId, cutoff, cutoff, limit] : [deviceId, cutoff, limit];
  const rows = await tx.query<{ sequence: number | null }>(DELETE_SQL[kind], params);
  const sequences = rows.flatMap((r) => (r.sequence === null ? [] : [Number(r.sequence)]));
  if (sequences.length > 0) await insertExpiredRanges(tx, deviceId, normalizeRanges(sequences.map((s) => [s, s])), now);
  return rows.length;
}

export async function expireOrphanLogs(tx: Queryable, cutoff: number, limit: number): Promise<number> {
  return tx.run(ORPHAN_LOGS_SQL, [cutoff, limit]);
}

async function insertExpiredRanges(
  tx: Queryable,
  deviceId: string,
  ranges: readonly SequenceRange[],
  now: number,
): Promise<void> {
  const params: SqlValue[] = ranges.flatMap(([first, last]) => [deviceId, first, last, now]);
  await tx.run(
    `INSERT INTO expired_ranges (device_id, first_sequence, last_sequence, expired_at) VALUES ${ranges
      .map(() => '(?, ?, ?, ?)')
      .join(', ')}`,
    params,
  );
}

/** The sequence ranges retention removed from a device (received or quarantined once). */
export async function readExpiredRanges(db: Queryable, deviceId: string): Promise<SequenceRange[]> {
  const rows = await db.query<{ first_sequence: number; last_sequence: number }>(
    `SELECT first_sequence, last_sequence FROM expired_ranges WHERE device_id = ?`,
    [deviceId],
  );
  return normalizeRanges(rows.map((r) => [Number(r.first_sequence), Number(r.last_sequence)]));
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
  return rows.map((r) => ({ id: r.id, orgDays: r.retention_days === null ? null : Number(r.retention_days) }));
}
