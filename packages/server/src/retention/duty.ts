import { performance } from 'node:perf_hooks';

/** What the server is doing, as retention's pacing sees it. */
export interface IngestLoad {
  /** The share of the last second in which every commit slot of the ingest queue was taken (0..1; group-commit.ts allSlotsBusyMs). */
  saturated: number;
  /** The share of ingest's commit slots in use over the last second (0..1; group-commit.ts busyMs). */
  committing: number;
}

/**
 * The smallest share retention takes while a backlog lasts: a saturated ingest keeps about 95% of
 * its rate. A tenth until session 26, when saturation was read at the instant a slice ended and a
 * fleet at half the rate met it often: the SQLite saturating case then sat at the 0.9 line by
 * construction (0.84-0.98 in whole runs, often just under). With saturation read over a second
 * (SATURATED_SHARE) a twentieth costs the paced fleet nothing (session 17 had tried it with the
 * instant check: removal fell to 0.88 of arrival).
 */
export const DUTY_FLOOR = 0.05;
/**
 * Ingest counts as saturated, and retention takes its floor, when it had no slot free for at least
 * this share of the last second. A share, not the moment: a fleet at half the server's rate fills
 * every slot now and then, and a slice that ended in such a moment rested nine times its work
 * (on PostgreSQL a fifth of the slices, most of retention's time: session 26).
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
