import { setTimeout as pause } from 'node:timers/promises';
import type { Database } from '../db/database.js';
import { cutoffOf } from './cutoff.js';
import { LoopWindow, retentionDuty, type IngestLoad } from './duty.js';
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

  /** Deletes a device's rows of one kind past the cutoff, one bounded slice per transaction. */
  private async drain(kind: RetentionKind, deviceId: string, cutoff: number, now: number): Promise<number> {
    let removed = 0;
    let from = EARLIEST;
    for (;;) {
      // The time the slice worked, not the time it waited for its turn: a transaction queued behind
      // ingest's (SQLite's one writer) counted as retention's own made it rest for ingest's work
      // too. On SQLite the commit is work on the server's loop (the WAL write) and counts; on
      // PostgreSQL it is a wait for the database's log flush, shared with ingest's group commits,
      // and counting it kept retention resting through most of the time it could delete in.
      const started = performance.now();
      const slice = await nextSlice(this.db, kind, deviceId, from, cutoff, this.options.batchSize);
      let spent = performance.now() - started;
      let began = 0;
      let deleted = 0;
      removed += await this.db.transaction(async (tx) => {
        began = performance.now();
        try {
          return await expireSlice(tx, kind, deviceId, from, slice.until, now);
        } finally {
          deleted = performance.now();
        }
      });
      spent += (this.db.dialect === 'sqlite' ? performance.now() : deleted) - began;
      if (slice.last || this.closed) return removed;
      from = slice.until;
      this.loop.spent(spent);
      const duty = retentionDuty(this.hooks.ingestLoad(), this.loop.shares());
      const rest = spent * (1 / duty - 1);
      await pause(rest, undefined, { ref: false, signal: this.closing.signal }).catch(() => undefined);
    }
  }
}

const total = (report: RetentionReport): number => RETENTION_KINDS.reduce((sum, kind) => sum + report[kind], 0);
