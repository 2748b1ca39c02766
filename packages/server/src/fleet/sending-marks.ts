import type { Queryable } from '../db/database.js';
import { int8Array } from '../store/pg-arrays.js';
import { deleteDelivered, markSending } from './outbox-store.js';

/**
 * How a sink's lanes record their attempts (send-lane.ts): each event's mark before it goes out,
 * with the deletion of the lane's previous event, which the sink took, in the same statement.
 */
export interface SendingMarks {
  /**
   * Records that an attempt on `seq` begins, only while the sink's lease lasts until
   * `leaseAtLeast` (outbox-store.ts, markSending), deleting `taken` with it; false: the lease is
   * gone or too short, or the row is (nothing is sent).
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

/**
 * PostgreSQL: the marks (and deletions) of all lanes waiting at once go in ONE statement. Each one
 * a statement of its own made a commit, a WAL flush, per event: with 16 lanes under way, more
 * commits than ingest made (a batch of 100 records made 2 to 8 events) and about as much database
 * CPU again as the records' own. Each lane still deletes its taken event with its next mark, so
 * at most one event per device is ever in doubt; a lane waits at most for the statement under way.
 * The lease is checked for the longest `leaseAtLeast` of the statement's marks (stricter for the
 * others); sending_at, which only says an attempt began, is the latest `now`.
 */
const MARK_ALL = `WITH gone AS (DELETE FROM outbox WHERE seq = ANY(CAST(? AS BIGINT[])))
  UPDATE outbox SET sending_at = ? WHERE seq = ANY(CAST(? AS BIGINT[]))
    AND EXISTS (SELECT 1 FROM sinks WHERE id = ? AND leader = ? AND lease_until >= ?)
  RETURNING seq`;

class CoalescedMarks implements SendingMarks {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly db: Queryable,
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
      // After this turn's microtasks: lanes that start (or go on) together share the statement.
      queueMicrotask(() => void this.flush());
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
    const marks = batch.filter((w) => w.seq !== null);
    if (marks.length === 0) {
      await deleteDelivered(this.db, gone);
      return new Set();
    }
    const rows = await this.db.query<{ seq: number }>(MARK_ALL, [
      int8Array(gone),
      Math.max(...marks.map((w) => w.now)),
      int8Array(marks.map((w) => w.seq)),
      this.sink.id,
      this.sink.owner,
      Math.max(...marks.map((w) => w.leaseAtLeast)),
    ]);
    return new Set(rows.map((row) => Number(row.seq)));
  }
}

/** A sink's marks for one round: coalesced on PostgreSQL; on SQLite (in-process calls, no commit to share) one by one. */
export function sendingMarks(db: Queryable, sink: { id: string; owner: string }): SendingMarks {
  if (db.dialect === 'postgres') return new CoalescedMarks(db, sink);
  return {
    mark: (seq, now, leaseAtLeast, taken) => markSending(db, 'sqlite', seq, sink, now, leaseAtLeast, taken),
    deleteTaken: (seq) => deleteDelivered(db, [seq]),
  };
}
