import { setTimeout as pause } from 'node:timers/promises';
import type { Database, Queryable } from '../db/database.js';
import { arrivalWindow, expireArrivals, sweepGoesOn } from './arrival-sweep.js';
import { cutoffOf } from './cutoff.js';
import { DUTY_CEILING, DUTY_CEILING_POSTGRES, LoopWindow, retentionDuty, type IngestLoad } from './duty.js';
import { RETENTION_KINDS, type RetentionKind, type RetentionOptions } from './retention-options.js';
import { devicePage, EARLIEST, expireOrphanLogs, expireSlice, nextSlice } from './retention-store.js';

/** What one pass removed, per kind. */
export type RetentionReport = Record<RetentionKind, number>;

/** Devices read per page: a pass never holds the whole fleet in memory. */
const DEVICE_PAGE = 500;

export interface RetentionHooks {
  /** A pass that removed something (logged with a code). */
  removed(report: RetentionReport): void;
  /** A pass that failed (a database hiccup): tried again at the next interval. */
  error(error: unknown): void;
  /** What ingest is doing: retention's share of the time follows it (duty.ts). */
  ingestLoad(): IngestLoad;
}

/**
 * Enforces retention continuously: a pass walks the fleet a page of devices at a time and deletes
 * each device's rows past its cutoff in statements of at most `batchSize` rows, each its own short
 * transaction, pausing between them so that deleting takes only the share of time ingest leaves
 * over (duty.ts): on SQLite a delete runs on the event loop itself, and without the pause a backlog
 * of millions would take the loop from ingest for as long as it lasts. Ingest is never held behind
 * a long delete. When a pass finds nothing due it sleeps `intervalMs`; when it removed something,
 * the next starts at once.
 */
export class RetentionWorker {
  private running: Promise<RetentionReport> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly closing = new AbortController();
  private readonly loop = new LoopWindow();
  /** The work time of the last slice (ms), what the rest after it follows. */
  private lastSpent = 0;
  /** The last pass that ended: when, and what it removed. */
  last: { at: number; removed: RetentionReport } | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: RetentionOptions,
    private readonly now: () => number,
    private readonly hooks: RetentionHooks,
  ) {}

  /** Starts the automatic passes (an organization's period may be set at any time: always on). */
  start(): void {
    this.schedule(0);
  }

  /** Runs a pass now (after the one running, if any) and answers what it removed. */
  async runNow(): Promise<RetentionReport> {
    if (this.running) await this.running.catch(() => undefined);
    return this.pass();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) return this.schedule(this.options.intervalMs);
      this.pass().then(
        (report) => this.schedule(total(report) > 0 ? 0 : this.options.intervalMs),
        (error: unknown) => (this.hooks.error(error), this.schedule(this.options.intervalMs)),
      );
    }, delayMs);
    this.timer.unref();
  }

  private pass(): Promise<RetentionReport> {
    const run = this.walk().finally(() => (this.running = null));
    this.running = run;
    return run;
  }

  private async walk(): Promise<RetentionReport> {
    const report: RetentionReport = { locations: 0, quarantine: 0, logs: 0, events: 0 };
    const now = this.now();
    report.locations += await this.sweep(now);
    let after: string | null = null;
    for (;;) {
      const devices = await devicePage(this.db, after, DEVICE_PAGE);
      for (const device of devices) {
        for (const kind of RETENTION_KINDS) {
          const cutoff = cutoffOf(kind, device.orgDays, this.options, now);
          if (cutoff !== null) report[kind] += await this.drain(kind, device.id, cutoff, now);
        }
      }
      if (devices.length < DEVICE_PAGE || this.closed) break;
      after = devices.at(-1)!.id;
    }
    const orphanCutoff = cutoffOf('logs', null, this.options, now);
    if (orphanCutoff !== null) report.logs += await expireOrphanLogs(this.db, orphanCutoff, this.options.batchSize);
    this.last = { at: now, removed: report };
    if (total(report) > 0) this.hooks.removed(report);
    return report;
  }

  /**
   * Deletes the oldest arrivals past their cutoff first, a window of `batchSize` at a time in the
   * table's own order (arrival-sweep.ts), while at least half of each window is due: the bulk of a
   * backlog, and in steady state what expired since the last pass. What the sweep leaves (records
   * that arrived late with old times, or rows behind an organization that keeps longer) goes
   * device by device after it.
   */
  private async sweep(now: number): Promise<number> {
    let removed = 0;
    let after = 0;
    for (;;) {
      const { found: window, removed: gone } = await this.paced(
        () => arrivalWindow(this.db, after, this.options.batchSize, this.options, now),
        (tx, due) => expireArrivals(tx, due.expired, now),
      );
      removed += gone;
      if (!sweepGoesOn(window, this.options.batchSize) || this.closed) return removed;
      after = window.last;
      await this.rest();
    }
  }

  /** Deletes a device's rows of one kind past the cutoff, one bounded slice per transaction. */
  private async drain(kind: RetentionKind, deviceId: string, cutoff: number, now: number): Promise<number> {
    let removed = 0;
    let from = EARLIEST;
    for (;;) {
      const { found: slice, removed: gone } = await this.paced(
        () => nextSlice(this.db, kind, deviceId, from, cutoff, this.options.batchSize),
        (tx, due) => expireSlice(tx, kind, deviceId, from, due.until, now),
      );
      removed += gone;
      if (slice.last || this.closed) return removed;
      from = slice.until;
      await this.rest();
    }
  }

  /**
   * Runs one slice: a read that finds what is due, then its delete in a transaction of its own,
   * counting the time the slice worked, not the time it waited for its turn: a transaction queued
   * behind ingest's (SQLite's one writer) counted as retention's own made it rest for ingest's work
   * too. On SQLite the commit is work on the server's loop (the WAL write) and counts; on
   * PostgreSQL it is a wait for the database's log flush, shared with ingest's group commits, and
   * counting it kept retention resting through most of the time it could delete in.
   */
  private async paced<T>(
    find: () => Promise<T>,
    remove: (tx: Queryable, found: T) => Promise<number>,
  ): Promise<{ found: T; removed: number }> {
    const started = performance.now();
    const found = await find();
    this.lastSpent = performance.now() - started;
    let began = 0;
    let deleted = 0;
    const removed = await this.db.transaction(async (tx) => {
      began = performance.now();
      try {
        return await remove(tx, found);
      } finally {
        deleted = performance.now();
      }
    });
    this.lastSpent += (this.db.dialect === 'sqlite' ? performance.now() : deleted) - began;
    return { found, removed };
  }

  /** Rests after a slice so that deleting takes only the share of time ingest leaves over (duty.ts). */
  private async rest(): Promise<void> {
    this.loop.spent(this.lastSpent);
    const ceiling = this.db.dialect === 'postgres' ? DUTY_CEILING_POSTGRES : DUTY_CEILING;
    const duty = retentionDuty(this.hooks.ingestLoad(), this.loop.shares(), ceiling);
    const rest = this.lastSpent * (1 / duty - 1);
    await pause(rest, undefined, { ref: false, signal: this.closing.signal }).catch(() => undefined);
  }
}

const total = (report: RetentionReport): number => RETENTION_KINDS.reduce((sum, kind) => sum + report[kind], 0);
