import type { Queryable } from '../db/database.js';
import type { EventType } from './fleet-event.js';
import { recordFailure, type PendingRow } from './outbox-store.js';
import { afterFailure, type RetryPolicy } from './retry-policy.js';
import type { SendingMarks } from './sending-marks.js';
import { NotDelivered, type Transport } from './transport.js';

/** What sending one sink's lanes of a round came to. */
export interface LaneTally {
  delivered: number;
  failed: number;
  dead: number;
  lastError: string | null;
  earliestRetry: number;
  /** Sent again although an earlier attempt's outcome was never recorded (the receiver may have it). */
  inDoubt: { eventId: string; deviceId: string }[];
  /** Taken by the sink, and the database could not be told: deleted before anything else is sent. */
  unrecorded: number[];
  /** The lease was gone, or too short for one more attempt: nothing more is sent this round. */
  leaseShort: boolean;
}

export interface LaneSink {
  /** Where each attempt is recorded before it begins (sending-marks.ts: shared by the round's lanes). */
  marks: SendingMarks;
  transport: Transport;
  retry: RetryPolicy;
  now: () => number;
  /** An attempt's deadline; an attempt begins only while the lease has twice that left. */
  attemptMs: number;
}

export const emptyTally = (): LaneTally => ({
  delivered: 0,
  failed: 0,
  dead: 0,
  lastError: null,
  earliestRetry: Infinity,
  inDoubt: [],
  unrecorded: [],
  leaseShort: false,
});

/**
 * Sends one device's due events in order, each recorded before it goes out and deleted as soon as
 * the sink took it (with the next one's record, or alone after the last), so that at any moment at most one event of the device has an outcome the
 * database does not know (the one on its way). The first failure stops the lane: the device's
 * later events wait behind it.
 */
export async function sendLane(db: Queryable, sink: LaneSink, lane: readonly PendingRow[], tally: LaneTally) {
  // The previous event the sink took: deleted with the next one's mark (one statement, sending-marks.ts).
  let taken: number | null = null;
  for (const row of lane) {
    if (tally.leaseShort) break;
    const now = sink.now();
    // Under the lease, with time for the whole attempt and as much again for the clocks of the
    // processes to differ: another process cannot take the sink over while this attempt may land.
    let marked: boolean;
    try {
      marked = await sink.marks.mark(row.seq, now, now + 2 * sink.attemptMs, taken);
    } catch {
      // The database is away: what the sink took is recorded once it is back (not sent again).
      if (taken !== null) tally.unrecorded.push(taken);
      return;
    }
    if (taken !== null) tally.delivered += 1;
    taken = null;
    if (!marked) {
      tally.leaseShort = true;
      return;
    }
    if (row.inDoubt) tally.inDoubt.push({ eventId: row.eventId, deviceId: row.deviceId });
    try {
      await sink.transport.send(
        { id: row.eventId, device: row.deviceId, type: row.type as EventType },
        row.body,
        sink.attemptMs,
      );
      taken = row.seq;
    } catch (error) {
      tally.failed += 1;
      tally.lastError = (error as Error).message ?? String(error);
      const next = afterFailure(sink.retry, row.attempts + 1, row.createdAt, sink.now());
      // A database that is away now: the row keeps its mark, and is tried again (in doubt) later.
      await recordFailure(db, row.seq, {
        error: tally.lastError,
        ...next,
        inDoubt: !(error instanceof NotDelivered),
      }).catch(() => undefined);
      if (next.dead) {
        tally.dead += 1;
        continue;
      }
      tally.earliestRetry = Math.min(tally.earliestRetry, next.nextAt);
      return;
    }
  }
  if (taken === null) return;
  try {
    await sink.marks.deleteTaken(taken);
    tally.delivered += 1;
  } catch {
    tally.unrecorded.push(taken);
  }
}
