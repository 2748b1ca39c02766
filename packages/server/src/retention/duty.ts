/** What the server is doing, as retention's pacing sees it. */
export interface IngestLoad {
  /** How saturated ingest is, 0..1 (saturationOf, below). */
  saturated: number;
  /** The share of ingest's commit slots in use over the last second (0..1; group-commit.ts busyMs). */
  committing: number;
}

/**
 * The smallest share retention takes while a backlog lasts: ingest keeps about 90% of its rate. A
 * twentieth was measured (session 26, and 17): with SQLite read at the instant (saturationOf) a
 * fleet at half the rate met the floor so often that removal fell to 0.88-0.99 of arrival; with
 * SQLite read as a share, a saturating load went unseen (0.89 of ingest kept).
 */
export const DUTY_FLOOR = 0.1;
/**
 * Ingest counts as saturated, and retention takes its floor, from this reading on (saturationOf).
 * On PostgreSQL a share, not the moment: a fleet at half the server's rate fills every slot now
 * and then, and a slice that ended in such a moment rested nine times its work (a fifth of the
 * slices, most of retention's time: session 26).
 */
export const SATURATED_SHARE = 0.5;
/** The largest on SQLite: a server taking no uploads still answers promptly (a slice blocks its loop for tens of ms). */
export const DUTY_CEILING = 0.5;
/**
 * The largest on PostgreSQL, where a slice blocks nothing of the server's loop (the delete runs in
 * the database) and what ingest's transactions leave is the bound. At SQLite's 0.5 a fleet at half
 * the server's rate met the ceiling, not ingest (its slots about a quarter in use), and the backlog
 * was removed at 0.88-1.02 of the arrival rate (session 22, bench/retention.mjs).
 */
export const DUTY_CEILING_POSTGRES = 0.8;
/** The share of the event loop ingest and retention may use together before retention steps back (a little left for answering). */
const LOOP_HEADROOM = 0.95;

/**
 * The share of wall time retention may spend deleting, from what ingest leaves over: the larger of
 * the event loop's share ingest took (on SQLite every delete and commit runs on that loop) and the
 * share of ingest's commit slots in use (on PostgreSQL deletes run in the database's own
 * processes, which the loop does not see; transactions slowed by retention's deletes hold their
 * slots longer, so retention steps back as it starts to cost ingest). Retention takes what is left (up
 * to the ceiling), and the floor when ingest takes it all: a fleet sending at half the server's
 * capacity leaves retention about 0.45, enough to keep pace, where a fixed floor let a backlog grow.
 */
export function retentionDuty(
  load: IngestLoad,
  loop: { busy: number; retention: number },
  ceiling = DUTY_CEILING,
): number {
  if (load.saturated >= SATURATED_SHARE) return DUTY_FLOOR;
  const ingest = Math.max(0, loop.busy - loop.retention, load.committing);
  return Math.min(ceiling, Math.max(DUTY_FLOOR, LOOP_HEADROOM - ingest));
}

/**
 * How saturated retention reads ingest. PostgreSQL: the share of the last second every commit slot
 * was taken (group-commit.ts allSlotsBusyMs), not the instant a slice ends, where a fleet at half
 * the rate fills all four slots now and then. SQLite: the instant (1 when its one slot is taken or
 * uploads wait): its request handling shares the loop with its commits, so under a saturating load
 * the slot is in use less than half the time, and read as a share the load went unseen (retention
 * took a quarter of the loop and ingest kept 0.89 of its rate: session 26).
 */
export function saturationOf(
  dialect: 'sqlite' | 'postgres',
  queue: { readonly saturated: boolean; readonly allSlotsBusyMs: number },
): () => number {
  if (dialect === 'sqlite') return () => (queue.saturated ? 1 : 0);
  return shareOf(() => queue.allSlotsBusyMs);
}

/** The share of each window a cumulative busy time (ms) grew by: the last whole window's. */
export function shareOf(busyMs: () => number, windowMs = 1000): () => number {
  let fromAt = performance.now();
  let from = busyMs();
  let last = 0;
  return () => {
    const now = performance.now();
    if (now - fromAt >= windowMs) {
      const busy = busyMs();
      last = Math.min(1, Math.max(0, (busy - from) / (now - fromAt)));
      from = busy;
      fromAt = now;
    }
    return last;
  };
}

/**
 * The event loop's busy share over the last whole window (Node's event loop utilization), and the
 * part of it retention's own slices took. Until a window has passed: the loop counted as busy.
 */
export class LoopWindow {
  private from = performance.eventLoopUtilization();
  private fromAt = performance.now();
  private retentionMs = 0;
  private last = { busy: 1, retention: 0 };

  constructor(private readonly windowMs = 1000) {}

  /** Retention spent `ms` of loop time in a slice. */
  spent(ms: number): void {
    this.retentionMs += ms;
  }

  shares(): { busy: number; retention: number } {
    const now = performance.now();
    const elapsed = now - this.fromAt;
    if (elapsed >= this.windowMs) {
      const busy = performance.eventLoopUtilization(this.from).utilization;
      this.last = { busy, retention: Math.min(busy, this.retentionMs / elapsed) };
      this.from = performance.eventLoopUtilization();
      this.fromAt = now;
      this.retentionMs = 0;
    }
    return this.last;
  }
}
