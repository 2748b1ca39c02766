import type { Queryable, SqlValue } from '../db/database.js';
import type { DropReason } from '@waypost/sdk/internal';
import { readExpiredRanges } from '../retention/retention-store.js';
import {
  countInRanges as countOf,
  normalizeRanges as normalize,
  subtractRanges as subtract,
  type SequenceRange as Range,
} from '@waypost/sdk/internal';

/** A range of sequence numbers a device reported dropped. */
export interface DroppedInsert {
  deviceId: string;
  reason: DropReason;
  range: Range;
}

/** Keeps reported drops, in the caller's transaction (the one storing the request's records). */
export async function insertDroppedRanges(
  db: Queryable,
  rows: readonly DroppedInsert[],
  receivedAt: number,
): Promise<void> {
  const params: SqlValue[] = rows.flatMap((r) => [r.deviceId, r.reason, r.range[0], r.range[1], receivedAt]);
  await db.run(
    `INSERT INTO dropped_ranges (device_id, reason, first_sequence, last_sequence, received_at) VALUES ${rows
      .map(() => '(?, ?, ?, ?, ?)')
      .join(', ')}`,
    params,
  );
}

export interface Ledger {
  highestSequence: number;
  received: number;
  duplicates: number;
  quarantined: number;
  dropped: Record<DropReason, number>;
  /** Numbers received (or quarantined) once and removed since by retention. */
  expired: number;
  expiredRanges: Range[];
  missing: number;
  missingRanges: Range[];
}

/**
 * A device's delivery ledger: every sequence number up to the highest seen is received, in
 * quarantine, reported dropped, expired (removed by retention), or missing. Received wins over a drop report (a record dropped
 * after it was delivered, or reported twice, counts once). The received numbers are read as ranges
 * (gaps and islands over the sequence index), so a device of a million records costs a scan of its
 * index, not a million objects.
 */
export async function readLedger(
  db: Queryable,
  deviceId: string,
  device: { duplicates: number; quarantined: number },
): Promise<Ledger> {
  const islands = await db.query<{ first: number; last: number }>(
    `SELECT MIN(sequence) AS first, MAX(sequence) AS last FROM (
       SELECT sequence, sequence - ROW_NUMBER() OVER (ORDER BY sequence) AS island
       FROM (SELECT DISTINCT sequence FROM locations WHERE device_id = ? AND sequence IS NOT NULL) AS s
     ) AS numbered GROUP BY island ORDER BY first`,
    [deviceId],
  );
  const received = normalize(islands.map((r) => [Number(r.first), Number(r.last)] as Range));
  const kept = await db.query<{ sequence: number }>(
    `SELECT DISTINCT sequence FROM quarantine WHERE device_id = ? AND sequence IS NOT NULL`,
    [deviceId],
  );
  const quarantined = subtract(normalize(kept.map((r) => [Number(r.sequence), Number(r.sequence)] as Range)), received);
  const reports = await db.query<{ reason: DropReason; first_sequence: number; last_sequence: number }>(
    `SELECT reason, first_sequence, last_sequence FROM dropped_ranges WHERE device_id = ?`,
    [deviceId],
  );
  // Removed by retention: received once, not counted missing (a resent record stored again wins).
  const expiredRanges = subtract(await readExpiredRanges(db, deviceId), normalize([...received, ...quarantined]));
  const accounted = normalize([...received, ...quarantined, ...expiredRanges]);
  const dropped = { ttl: 0, cap: 0, destroyed: 0 } as Record<DropReason, number>;
  let droppedRanges: Range[] = [];
  for (const reason of ['ttl', 'cap', 'destroyed'] as DropReason[]) {
    const ranges = normalize(
      reports
        .filter((r) => r.reason === reason)
        .map((r) => [Number(r.first_sequence), Number(r.last_sequence)] as Range),
    );
    // A number reported under two reasons counts under the first of ttl, cap, destroyed.
    const own = subtract(subtract(ranges, accounted), normalize(droppedRanges));
    dropped[reason] = countOf(own);
    droppedRanges = normalize([...droppedRanges, ...own]);
  }
  const all = normalize([...accounted, ...droppedRanges]);
  const highestSequence = all.length === 0 ? 0 : all.at(-1)![1];
  const missingRanges = highestSequence === 0 ? [] : subtract([[1, highestSequence]], all);
  return {
    highestSequence,
    received: countOf(received),
    duplicates: device.duplicates,
    quarantined: device.quarantined,
    dropped,
    expired: countOf(expiredRanges),
    expiredRanges,
    missing: countOf(missingRanges),
    missingRanges,
  };
}
