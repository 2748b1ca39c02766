import { normalizeRanges as normalize, type SequenceRange as Range } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';

export type GapState = 'asked' | 'lost';

/** A device's acknowledged gaps of one numbering, per state (issue 46). */
export interface Gaps {
  asked: Range[];
  lost: Range[];
}

const epochTerm = (epoch: string | null) => (epoch === null ? 'sequence_epoch IS NULL' : 'sequence_epoch = ?');
const epochParam = (epoch: string | null) => (epoch === null ? [] : [epoch]);

/** The gaps kept for `deviceId`, per numbering (key: epoch, '' for none). */
export async function readGaps(db: Queryable, deviceId: string): Promise<Map<string, Gaps & { epoch: string | null }>> {
  const rows = await db.query<{ epoch: string | null; first: number; last: number; state: GapState }>(
    `SELECT sequence_epoch AS epoch, first_sequence AS first, last_sequence AS last, state
     FROM acknowledged_gaps WHERE device_id = ?`,
    [deviceId],
  );
  const gaps = new Map<string, Gaps & { epoch: string | null }>();
  for (const r of rows) {
    const key = r.epoch ?? '';
    const entry = gaps.get(key) ?? { epoch: r.epoch, asked: [], lost: [] };
    entry[r.state].push([Number(r.first), Number(r.last)]);
    gaps.set(key, entry);
  }
  for (const entry of gaps.values()) {
    entry.asked = normalize(entry.asked);
    entry.lost = normalize(entry.lost);
  }
  return gaps;
}

export async function insertGaps(
  db: Queryable,
  deviceId: string,
  epoch: string | null,
  state: GapState,
  ranges: readonly Range[],
  at: number,
): Promise<void> {
  for (const [first, last] of ranges) {
    await db.run(
      `INSERT INTO acknowledged_gaps (device_id, sequence_epoch, first_sequence, last_sequence, state, noted_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [deviceId, epoch, first, last, state, at],
    );
  }
}

/**
 * The numbers of `deviceId`'s numbering `epoch` the server holds between `from` and `to` (records,
 * or removed by retention: both were held), as ranges: a scan of that span of the (device, epoch,
 * sequence) index only.
 */
export async function heldRanges(
  db: Queryable,
  deviceId: string,
  epoch: string | null,
  from: number,
  to: number,
): Promise<Range[]> {
  const islands = await db.query<{ first: number; last: number }>(
    `SELECT MIN(sequence) AS first, MAX(sequence) AS last FROM (
       SELECT sequence, sequence - ROW_NUMBER() OVER (ORDER BY sequence) AS island
       FROM (SELECT DISTINCT sequence FROM locations
             WHERE device_id = ? AND ${epochTerm(epoch)} AND sequence BETWEEN ? AND ?) AS s
     ) AS numbered GROUP BY island ORDER BY first`,
    [deviceId, ...epochParam(epoch), from, to],
  );
  const expired = await db.query<{ first: number; last: number }>(
    `SELECT first_sequence AS first, last_sequence AS last FROM expired_ranges
     WHERE device_id = ? AND ${epochTerm(epoch)} AND last_sequence >= ? AND first_sequence <= ?`,
    [deviceId, ...epochParam(epoch), from, to],
  );
  return normalize([...islands, ...expired].map((r): Range => [Number(r.first), Number(r.last)]));
}
