import type { Queryable } from '../db/database.js';

/** An outbox row waiting for delivery. */
export interface PendingRow {
  seq: number;
  eventId: string;
  deviceId: string;
  type: string;
  body: string;
  createdAt: number;
  attempts: number;
  nextAt: number;
  /** An attempt on it began and its outcome was never recorded: the receiver may have it already. */
  inDoubt: boolean;
}

/** Devices waiting at most on a retry in one query; beyond, their rows may take room in a round. */
const MAX_BLOCKED = 500;

/**
 * A sink's oldest due rows, in outbox order (which is each device's event order), leaving out the
 * devices whose first waiting event is not due yet (they wait whole, so their order holds), and
 * when the next of those comes due.
 */
export async function dueRows(
  db: Queryable,
  sinkId: string,
  now: number,
  limit: number,
): Promise<{ rows: PendingRow[]; nextRetry: number }> {
  const blocked = await db.query<{ device_id: string; next_at: number }>(
    `SELECT device_id, next_at FROM outbox WHERE sink_id = ? AND next_at > ? AND status = 'pending' ORDER BY next_at LIMIT ?`,
    [sinkId, now, MAX_BLOCKED],
  );
  const devices = [...new Set(blocked.map((b) => b.device_id))];
  const exclude = devices.length === 0 ? '' : ` AND device_id NOT IN (${devices.map(() => '?').join(', ')})`;
  const rows = await db.query<{
    seq: number;
    event_id: string;
    device_id: string;
    type: string;
    body: string;
    created_at: number;
    attempts: number;
    next_at: number;
    sending_at: number | null;
  }>(
    `SELECT seq, event_id, device_id, type, body, created_at, attempts, next_at, sending_at FROM outbox
     WHERE sink_id = ? AND status = 'pending'${exclude} ORDER BY seq LIMIT ?`,
    [sinkId, ...devices, limit],
  );
  return {
    nextRetry: blocked.length === 0 ? Infinity : Number(blocked[0]!.next_at),
    rows: rows.map((r) => ({
      seq: Number(r.seq),
      eventId: r.event_id,
      deviceId: r.device_id,
      type: r.type,
      body: r.body,
      createdAt: Number(r.created_at),
      attempts: Number(r.attempts),
      nextAt: Number(r.next_at),
      inDoubt: r.sending_at !== null,
    })),
  };
}

/** Everything of a sink that is gone. */
/** Removes every event left for a sink; resolves with how many there were. */
export async function deleteOutboxOf(db: Queryable, sinkId: string): Promise<number> {
  return db.run(`DELETE FROM outbox WHERE sink_id = ?`, [sinkId]);
}

/** Delivered rows leave the outbox. */
export async function deleteDelivered(db: Queryable, seqs: readonly number[]): Promise<void> {
  for (let start = 0; start < seqs.length; start += 500) {
    const chunk = seqs.slice(start, start + 500);
    await db.run(`DELETE FROM outbox WHERE seq IN (${chunk.map(() => '?').join(', ')})`, chunk);
  }
}

/**
 * A failed attempt: tried again at nextAt, or dead-lettered (dead: true). `inDoubt`: the request
 * may have reached the receiver (no answer, a connection lost after sending): the row stays marked,
 * so its next attempt is known to be a possible repeat; a refusal (an HTTP status, a connection
 * refused) clears the mark.
 */
export async function recordFailure(
  db: Queryable,
  seq: number,
  failure: { error: string; nextAt: number; dead: boolean; inDoubt: boolean },
): Promise<void> {
  await db.run(
    `UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ?, status = ?${failure.inDoubt ? '' : ', sending_at = NULL'} WHERE seq = ?`,
    [failure.nextAt, failure.error.slice(0, 500), failure.dead ? 'dead' : 'pending', seq],
  );
}

export interface DeadRow {
  seq: number;
  /** The event's JSON as this server wrote it for the sink (a fleet event: type, device, timestamp...). */
  event: { [key: string]: unknown };
  attempts: number;
  lastError: string | null;
}

/** A sink's dead-lettered events, oldest first. */
export async function deadRows(db: Queryable, sinkId: string, limit: number): Promise<DeadRow[]> {
  const rows = await db.query<{ seq: number; body: string; attempts: number; last_error: string | null }>(
    `SELECT seq, body, attempts, last_error FROM outbox WHERE sink_id = ? AND status = 'dead' ORDER BY seq LIMIT ?`,
    [sinkId, limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    event: JSON.parse(r.body) as DeadRow['event'],
    attempts: Number(r.attempts),
    lastError: r.last_error,
  }));
}

/** Puts a sink's dead-lettered events (all, or those ids) back in line, due now; how many. */
export async function replayDead(
  db: Queryable,
  sinkId: string,
  eventIds: readonly string[] | null,
  now: number,
): Promise<number> {
  const only = eventIds === null ? '' : ` AND event_id IN (${eventIds.map(() => '?').join(', ')})`;
  return db.run(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_at = ?, created_at = ? WHERE sink_id = ? AND status = 'dead'${only}`,
    [now, now, sinkId, ...(eventIds ?? [])],
  );
}

/** What the outbox holds for a sink: events waiting, dead-lettered, and the latest failure of one waiting or dead. */
export interface SinkBacklog {
  pending: number;
  dead: number;
  lastError: string | null;
}

export async function outboxCounts(db: Queryable): Promise<Map<string, SinkBacklog>> {
  const rows = await db.query<{ sink_id: string; status: string; n: number }>(
    `SELECT sink_id, status, COUNT(*) AS n FROM outbox GROUP BY sink_id, status`,
  );
  const counts = new Map<string, SinkBacklog>();
  for (const row of rows) {
    const entry = counts.get(row.sink_id) ?? { pending: 0, dead: 0, lastError: null };
    if (row.status === 'dead') entry.dead = Number(row.n);
    else entry.pending = Number(row.n);
    counts.set(row.sink_id, entry);
  }
  // Only the first of each device's waiting events is ever tried: few rows carry an error.
  const failing = await db.query<{ sink_id: string; last_error: string }>(
    `SELECT sink_id, last_error FROM outbox WHERE last_error IS NOT NULL ORDER BY seq DESC LIMIT 1000`,
  );
  for (const row of failing) {
    const entry = counts.get(row.sink_id);
    if (entry && entry.lastError === null) entry.lastError = row.last_error;
  }
  return counts;
}

/**
 * Takes or renews the lease on delivering for a sink: true when this process holds it until
 * `until`. One process at a time delivers a sink's events (so each goes out once per sink); a
 * process that dies loses its lease when it runs out, and another takes over its events.
 */
export async function takeSinkLease(
  db: Queryable,
  sinkId: string,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE sinks SET leader = ?, lease_until = ? WHERE id = ? AND (leader = ? OR leader IS NULL OR lease_until IS NULL OR lease_until < ?)`,
    [owner, until, sinkId, owner, now],
  );
  return changed > 0;
}

/** Gives a lease back (on close), so another process takes over at once. */
export async function releaseSinkLease(db: Queryable, sinkId: string, owner: string): Promise<void> {
  await db.run(`UPDATE sinks SET leader = NULL, lease_until = NULL WHERE id = ? AND leader = ?`, [sinkId, owner]);
}
