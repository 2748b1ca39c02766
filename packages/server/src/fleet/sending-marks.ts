import type { Database } from '../db/database.js';
import { int8Array } from '../store/pg-arrays.js';
import { deleteDelivered } from './outbox-store.js';

/**
 * How a sink's lanes record their attempts (send-lane.ts): each event's mark before it goes out,
 * with the deletion of the lane's previous event, which the sink took, in the same commit.
 */
export interface SendingMarks {
  /**
   * Records that an attempt on `seq` begins, only while `owner` holds the sink's lease until
   * `leaseAtLeast` at least (the attempt's deadline, and a margin for the clocks of the processes):
   * so no other process can take the sink over and send the same event while this attempt may still
   * reach the receiver. Deletes `taken` (the device's previous event, which the sink took) in the
   * same commit, whatever the lease. False: the lease is gone or too short, or the row is (nothing
   * is sent).
   */
  mark(seq: number, now: number, leaseAtLeast: number, taken: number | null): Promise<boolean>;
  /** Deletes a lane's last event the sink took. */
  deleteTaken(seq: number): Promise<void>;
}

interface Waiting {
  /** The row to mark, or null: only `taken` is deleted. */
  seq: number | null;
  taken: number | null;
  now: number;
  leaseAtLeast: number;
  resolve: (marked: boolean) => void;
  reject: (error: unknown) => void;
}

/** PostgreSQL: one statement. */
const MARK_ALL = `WITH gone AS (DELETE FROM outbox WHERE seq = ANY(CAST(? AS BIGINT[])))
  UPDATE outbox SET sending_at = ? WHERE seq = ANY(CAST(? AS BIGINT[]))
    AND EXISTS (SELECT 1 FROM sinks WHERE id = ? AND leader = ? AND lease_until >= ?)
  RETURNING seq`;

/** SQLite: the deletion, then this, in one transaction (no DELETE in a WITH there). */
const markAllSqlite = (
  marks: number,
) => `UPDATE outbox SET sending_at = ? WHERE seq IN (${Array(marks).fill('?').join(', ')})
    AND EXISTS (SELECT 1 FROM sinks WHERE id = ? AND leader = ? AND lease_until >= ?)
  RETURNING seq`;

/**
 * The marks (and deletions) of all lanes waiting at once go in ONE commit. Each one a commit of its
 * own made, per event, a WAL flush on PostgreSQL and on SQLite two WAL appends (a deletion and a
 * mark): with 16 lanes under way, more commits than ingest made (a batch of 100 records made 2 to 8
 * events) and, on PostgreSQL, about as much database CPU again as the records' own. Each lane still
 * deletes its taken event with its next mark, so at most one event per device is ever in doubt; a
 * lane waits at most for the commit under way. The lease is checked for the longest `leaseAtLeast`
 * of the commit's marks (stricter for the others); sending_at, which only says an attempt began, is
 * the latest `now`.
 */
class CoalescedMarks implements SendingMarks {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly db: Database,
    private readonly sink: { id: string; owner: string },
  ) {}

  mark(seq: number, now: number, leaseAtLeast: number, taken: number | null): Promise<boolean> {
    return this.enqueue(seq, taken, now, leaseAtLeast);
  }

  async deleteTaken(seq: number): Promise<void> {
    await this.enqueue(null, seq, 0, 0);
  }

  private enqueue(seq: number | null, taken: number | null, now: number, leaseAtLeast: number): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ seq, taken, now, leaseAtLeast, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      // PostgreSQL: after this turn's microtasks, lanes that start (or go on) together share the
      // statement, and those that go on while it runs share the next. SQLite's statements run in
      // this process at once, so nothing waits behind them: after this poll's I/O callbacks, every
      // lane whose answer came in it shares the commit.
      if (this.db.dialect === 'postgres') queueMicrotask(() => void this.flush());
      else setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const marked = await this.write(batch);
        for (const w of batch) w.resolve(w.seq === null || marked.has(w.seq));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.flushing = false;
  }

  private async write(batch: readonly Waiting[]): Promise<Set<number>> {
    const gone = batch.flatMap((w) => (w.taken === null ? [] : [w.taken]));
    const marks = batch.flatMap((w) => (w.seq === null ? [] : [w.seq]));
    if (marks.length === 0) {
      await deleteDelivered(this.db, gone);
      return new Set();
    }
    const now = Math.max(...batch.map((w) => w.now));
    const lease = [this.sink.id, this.sink.owner, Math.max(...batch.map((w) => w.leaseAtLeast))];
    const rows =
      this.db.dialect === 'postgres'
        ? await this.db.query<{ seq: number }>(MARK_ALL, [int8Array(gone), now, int8Array(marks), ...lease])
        : await this.db.transaction(async (tx) => {
            await deleteDelivered(tx, gone);
            return tx.query<{ seq: number }>(markAllSqlite(marks.length), [now, ...marks, ...lease]);
          });
    return new Set(rows.map((row) => Number(row.seq)));
  }
}

/** A sink's marks for one round: the lanes' marks and deletions coalesced into commits. */
export function sendingMarks(db: Database, sink: { id: string; owner: string }): SendingMarks {
  return new CoalescedMarks(db, sink);
}
