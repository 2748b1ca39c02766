import type { Queryable, SqlValue } from '../db/database.js';
import type { DropReason } from '@waypost/sdk/internal';
import { readExpiredRanges } from '../retention/retention-store.js';
import { DROP_REASONS, type SequenceRange as Range } from '@waypost/sdk/internal';
import { readGaps } from '../receipts/acknowledged-gaps.js';
import { accountNumbering, type NumberingAccount, type NumberingRows } from '../ledger/numbering-account.js';

/** A range of sequence numbers a device reported dropped. */
export interface DroppedInsert {
  deviceId: string;
  reason: DropReason;
  range: Range;
  /** The numbering the range belongs to (issue 39), when the report named it. */
  epoch?: string;
}

/** Keeps reported drops, in the caller's transaction (the one storing the request's records). */
export async function insertDroppedRanges(
  db: Queryable,
  rows: readonly DroppedInsert[],
  receivedAt: number,
): Promise<void> {
  const params: SqlValue[] = rows.flatMap((r) => [
    r.deviceId,
    r.reason,
    r.range[0],
    r.range[1],
    receivedAt,
    r.epoch ?? null,
  ]);
  await db.run(
    `INSERT INTO dropped_ranges (device_id, reason, first_sequence, last_sequence, received_at, sequence_epoch) VALUES ${rows
      .map(() => '(?, ?, ?, ?, ?, ?)')
      .join(', ')}`,
    params,
  );
}

/** One numbering's account (issue 39): the numbers an SDK issued from one start of its queue. */
export interface EpochLedger extends NumberingAccount {
  /** The numbering's id as the device sent it; null: numbers sent without one (an older SDK, another tracker). */
  epoch: string | null;
  /** When the server first kept anything of this numbering (epoch ms): when it began, as far as the server knows. */
  firstReceivedAt: number | null;
}

export interface Ledger {
  /** Numbers issued: the sum of each numbering's highest (the highest number when it never restarted). */
  highestSequence: number;
  received: number;
  duplicates: number;
  quarantined: number;
  dropped: Record<DropReason, number>;
  /** Numbers received (or quarantined) once and removed since by retention. */
  expired: number;
  /** The current numbering's expired ranges (each numbering's are in `epochs`). */
  expiredRanges: Range[];
  /** Numbers received again after the server lost them, asked for by receipt (issue 46). */
  recovered: number;
  /** Numbers acknowledged by receipt, lost by the server and no longer held by the device (issue 46). */
  lostAfterAck: number;
  /** The current numbering's lost-after-acknowledgement ranges. */
  lostAfterAckRanges: Range[];
  /** Numbers missing in all numberings together. */
  missing: number;
  /** The current numbering's missing ranges (each numbering's are in `epochs`). */
  missingRanges: Range[];
  /** Each numbering, oldest first (the last is the current one); at most MAX_EPOCHS_LISTED, the newest. */
  epochs: EpochLedger[];
  /** Numberings in all (epochs lists the newest of them). */
  epochCount: number;
  /** The device's numbering started again (a new queue database under the same device id). */
  restarted: boolean;
  /** When the current numbering began, when it is not the first (epoch ms). */
  restartedAt: number | null;
}

/** Numberings listed in a ledger answer: a device that restarts without end is answered in bounded size. */
export const MAX_EPOCHS_LISTED = 50;

type EpochKey = string;
const keyOf = (epoch: string | null): EpochKey => epoch ?? '';

/**
 * A device's delivery ledger: every sequence number up to the highest seen is received, in
 * quarantine, reported dropped, expired (removed by retention), or missing (numbering-account.ts),
 * counted apart for each numbering (epoch) the device sent: a tracker whose queue database started
 * again at 1 under the same device id (issue 39) gets a second account rather than its numbers
 * merged into the first. The received numbers are read as ranges (gaps and islands over the
 * (device, epoch, sequence) index), so a device of a million records costs a scan of its index,
 * not a million objects.
 */
export async function readLedger(
  db: Queryable,
  deviceId: string,
  device: { duplicates: number; quarantined: number },
): Promise<Ledger> {
  const rows = new Map<EpochKey, NumberingRows & { epoch: string | null; firstReceivedAt: number | null }>();
  const rowsOf = (epoch: string | null) => {
    let entry = rows.get(keyOf(epoch));
    if (!entry) {
      entry = { epoch, firstReceivedAt: null, received: [], quarantined: [], expired: [], dropped: [] };
      rows.set(keyOf(epoch), entry);
    }
    return entry;
  };
  const seen = (epoch: string | null, at: number) => {
    const entry = rowsOf(epoch);
    entry.firstReceivedAt = Math.min(entry.firstReceivedAt ?? at, at);
  };
  const islands = await db.query<{ epoch: string | null; first: number; last: number }>(
    `SELECT sequence_epoch AS epoch, MIN(sequence) AS first, MAX(sequence) AS last FROM (
       SELECT sequence_epoch, sequence,
         sequence - ROW_NUMBER() OVER (PARTITION BY sequence_epoch ORDER BY sequence) AS island
       FROM (SELECT DISTINCT sequence_epoch, sequence FROM locations
             WHERE device_id = ? AND sequence IS NOT NULL) AS s
     ) AS numbered GROUP BY sequence_epoch, island ORDER BY first`,
    [deviceId],
  );
  for (const r of islands) rowsOf(r.epoch).received.push([Number(r.first), Number(r.last)]);
  for (const { epoch, at } of await firstArrivals(db, deviceId, [...rows.values()])) seen(epoch, at);
  const kept = await db.query<{ epoch: string | null; sequence: number; at: number }>(
    `SELECT sequence_epoch AS epoch, sequence, MIN(received_at) AS at FROM quarantine
     WHERE device_id = ? AND sequence IS NOT NULL GROUP BY sequence_epoch, sequence`,
    [deviceId],
  );
  for (const r of kept) {
    rowsOf(r.epoch).quarantined.push([Number(r.sequence), Number(r.sequence)]);
    seen(r.epoch, Number(r.at));
  }
  const reports = await db.query<{
    reason: DropReason;
    first_sequence: number;
    last_sequence: number;
    epoch: string | null;
    at: number;
  }>(
    `SELECT reason, first_sequence, last_sequence, sequence_epoch AS epoch, received_at AS at
     FROM dropped_ranges WHERE device_id = ?`,
    [deviceId],
  );
  for (const r of await readExpiredRanges(db, deviceId)) {
    rowsOf(r.epoch).expired.push(r.range);
    // Removed by retention before this was known: its removal is the latest it can have begun.
    if (rowsOf(r.epoch).firstReceivedAt === null) seen(r.epoch, r.at);
  }
  for (const gaps of (await readGaps(db, deviceId)).values()) {
    const entry = rowsOf(gaps.epoch);
    entry.asked = gaps.asked;
    entry.lost = gaps.lost;
  }
  const unnamed = rows.get(keyOf(null));
  const started = [...rows.values()]
    .filter((r) => r.epoch !== null && r.firstReceivedAt !== null)
    .sort((a, b) => a.firstReceivedAt! - b.firstReceivedAt!);
  for (const r of reports) {
    const range: Range = [Number(r.first_sequence), Number(r.last_sequence)];
    // A report that names no numbering from a device whose numbers all name theirs (a proxy kept
    // Waypost-Ledger-Epochs from it, so it did not name it): the numbering in use when it arrived.
    const inUse =
      r.epoch === null && unnamed === undefined && started.length > 0
        ? ([...started].reverse().find((e) => e.firstReceivedAt! <= Number(r.at)) ?? started[0]!)
        : rowsOf(r.epoch);
    inUse.dropped.push({ reason: r.reason, range });
    seen(inUse.epoch, Number(r.at));
  }
  return sumLedger(
    [...rows.values()]
      .map((r): EpochLedger => ({ epoch: r.epoch, firstReceivedAt: r.firstReceivedAt, ...accountNumbering(r) }))
      .sort((a, b) => (a.firstReceivedAt ?? Infinity) - (b.firstReceivedAt ?? Infinity)),
    device,
  );
}

/** The device's ledger from its numberings' accounts, oldest first. */
function sumLedger(epochs: EpochLedger[], device: { duplicates: number; quarantined: number }): Ledger {
  const current = epochs.at(-1);
  const dropped = { ttl: 0, cap: 0, destroyed: 0 } as Record<DropReason, number>;
  for (const e of epochs) for (const reason of DROP_REASONS) dropped[reason] += e.dropped[reason];
  const sum = (pick: (e: EpochLedger) => number) => epochs.reduce((total, e) => total + pick(e), 0);
  return {
    highestSequence: sum((e) => e.highestSequence),
    received: sum((e) => e.received),
    duplicates: device.duplicates,
    quarantined: device.quarantined,
    dropped,
    expired: sum((e) => e.expired),
    expiredRanges: current?.expiredRanges ?? [],
    missing: sum((e) => e.missing),
    missingRanges: current?.missingRanges ?? [],
    recovered: sum((e) => e.recovered),
    lostAfterAck: sum((e) => e.lostAfterAck),
    lostAfterAckRanges: current?.lostAfterAckRanges ?? [],
    epochs: epochs.slice(-MAX_EPOCHS_LISTED),
    epochCount: epochs.length,
    restarted: epochs.length > 1,
    restartedAt: epochs.length > 1 ? (current?.firstReceivedAt ?? null) : null,
  };
}

/** Epochs looked up per statement (each names two parameters). */
const EPOCHS_PER_STATEMENT = 200;

/**
 * When each numbering's lowest stored number arrived: a point read on the (device, epoch,
 * sequence) index per numbering, not a scan of its records.
 */
async function firstArrivals(
  db: Queryable,
  deviceId: string,
  numberings: readonly (NumberingRows & { epoch: string | null })[],
): Promise<{ epoch: string | null; at: number }[]> {
  const lowest = numberings
    .filter((n) => n.received.length > 0)
    .map((n) => ({ epoch: n.epoch, first: n.received[0]![0] }));
  const found: { epoch: string | null; at: number }[] = [];
  for (let i = 0; i < lowest.length; i += EPOCHS_PER_STATEMENT) {
    const part = lowest.slice(i, i + EPOCHS_PER_STATEMENT);
    const params: SqlValue[] = [deviceId];
    const terms = part.map(({ epoch, first }) => {
      if (epoch === null) {
        params.push(first);
        return '(sequence_epoch IS NULL AND sequence = ?)';
      }
      params.push(epoch, first);
      return '(sequence_epoch = ? AND sequence = ?)';
    });
    const rows = await db.query<{ epoch: string | null; at: number }>(
      `SELECT sequence_epoch AS epoch, MIN(received_at) AS at FROM locations
       WHERE device_id = ? AND (${terms.join(' OR ')}) GROUP BY sequence_epoch`,
      params,
    );
    found.push(...rows.map((r) => ({ epoch: r.epoch, at: Number(r.at) })));
  }
  return found;
}
