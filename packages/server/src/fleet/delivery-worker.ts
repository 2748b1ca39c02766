import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import {
  deleteDelivered,
  deleteOutboxOf,
  dueRows,
  releaseSinkLease,
  takeSinkLease,
  type PendingRow,
} from './outbox-store.js';
import { SILENT_FLEET_LOG, type FleetLog } from './fleet-log.js';
import type { RetryPolicy } from './retry-policy.js';
import { emptyTally, sendLane } from './send-lane.js';
import { sendingMarks } from './sending-marks.js';
import type { Sink } from './sinks-store.js';
import type { Transport } from './transport.js';

export interface DeliveryOptions {
  retry: RetryPolicy;
  /** How often to look for events other processes wrote and retries that came due. */
  pollMs: number;
  /** How long a process holds a sink (renewed while it works); a dead process's sinks move on after it. */
  leaseMs: number;
  now: () => number;
  /** Devices whose events go out at once, per sink (one device's events always one after another). */
  lanes: number;
  /** Whether ingest is saturated (every commit slot busy, or uploads waiting): delivery then waits a little. */
  ingestBusy?: () => boolean;
}

/** Rows read per round and sink. */
const ROUND_ROWS = 500;
/** An attempt's longest time (a webhook's request), and at most a quarter of the lease. */
const ATTEMPT_MS = 10_000;
/**
 * Rounds start at most this often: under a steady ingest every commit wakes delivery, and rounds
 * back to back would cost ingest its queries (one SQLite connection, or a shared pool).
 */
const MIN_ROUND_GAP_MS = 25;
/**
 * While ingest is saturated, delivery (its queries and requests share the process and the
 * database with ingest) waits, but never longer than this: under a sustained saturation events
 * still go out at least this often, each round delivering everything due.
 */
const MAX_YIELD_MS = 1000;

/** Splits rows (outbox order) into per-device lanes, each in its own order. */
function lanesOf(rows: readonly PendingRow[]): PendingRow[][] {
  const lanes = new Map<string, PendingRow[]>();
  for (const row of rows) {
    const lane = lanes.get(row.deviceId);
    if (lane) lane.push(row);
    else lanes.set(row.deviceId, [row]);
  }
  return [...lanes.values()];
}

async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Delivers the outbox, off the ingest path: each sink's events go out in outbox order per device,
 * every one until its sink takes it (at least once, with its stable id), retried with backoff and
 * dead-lettered only by age. Of several processes on one database, one at a time holds a sink's
 * lease and delivers for it, so each event goes to each sink once.
 */
export class DeliveryWorker {
  private readonly owner = randomBytes(9).toString('base64url');
  private readonly transports = new Map<string, { url: string; transport: Transport }>();
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private poll: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private gapTimer: NodeJS.Timeout | null = null;
  private lastRoundAt = 0;
  /** Since when delivery has been yielding to a busy ingest (null: not yielding). */
  private yieldingSince: number | null = null;
  private lastPollWorkAt = 0;
  /** Sinks seen before and gone since, and when that was noticed (their leftover rows are removed). */
  private readonly gone = new Map<string, number>();
  private known = new Set<string>();
  /** Sinks this process holds the lease of, and until when: renewed by a heartbeat, also while a send hangs. */
  private readonly held = new Map<string, number>();
  /** Per sink, events the sink took whose deletion the database missed (it was away): deleted first. */
  private readonly unrecorded = new Map<string, number[]>();

  constructor(
    private readonly db: Database,
    private readonly options: DeliveryOptions,
    private readonly connect: (sink: Sink) => Transport,
    /** The sinks as this process knows them (refreshed by onPoll). */
    private readonly sinksNow: () => readonly Sink[],
    /** Work done once per poll before delivery (reloading the sinks, the silence check). */
    private readonly onPoll: () => Promise<void> = async () => {},
    /** Where rounds, failures and forgotten sinks are told (the server's log). */
    private readonly log: FleetLog = SILENT_FLEET_LOG,
  ) {}

  start(): void {
    this.poll = setInterval(() => this.wake(), this.options.pollMs);
    this.poll.unref();
    // Kept apart from delivery rounds: a receiver that takes its time must not cost the lease (another
    // process would then send the same events); only a process that is gone loses it.
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(1, Math.floor(this.options.leaseMs / 3)));
    this.heartbeat.unref();
    this.wake();
  }

  private async renewLeases(): Promise<void> {
    for (const sinkId of this.held.keys()) {
      const now = this.options.now();
      const until = now + this.options.leaseMs;
      const kept = await takeSinkLease(this.db, sinkId, this.owner, now, until).catch(() => false);
      if (kept) this.held.set(sinkId, until);
      else this.held.delete(sinkId);
    }
  }

  /** Looks for work now (after an ingest commit wrote events, say). */
  wake(): void {
    if (this.closed || this.gapTimer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    let wait = this.lastRoundAt + MIN_ROUND_GAP_MS - Date.now();
    if (wait <= 0 && this.options.ingestBusy?.()) {
      this.yieldingSince ??= Date.now();
      if (Date.now() - this.yieldingSince < MAX_YIELD_MS) wait = MIN_ROUND_GAP_MS;
    }
    if (wait > 0) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = null;
        this.wake();
      }, wait);
      return;
    }
    this.lastRoundAt = Date.now();
    this.yieldingSince = null;
    this.running = this.tick()
      .catch((error) => this.log.error(error))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when the current round is over (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    await this.idle();
    for (const sinkId of this.held.keys()) {
      if (!(await this.recordUnrecorded(sinkId))) continue; // the lease runs out; the next holder resends
      await releaseSinkLease(this.db, sinkId, this.owner).catch(() => undefined);
    }
    this.held.clear();
    for (const { transport } of this.transports.values()) await transport.close().catch(() => undefined);
    this.transports.clear();
  }

  private async tick(): Promise<void> {
    // The silence check and the sinks other processes added: once per poll, not on every wake.
    if (Date.now() - this.lastPollWorkAt >= this.options.pollMs) {
      this.lastPollWorkAt = Date.now();
      await this.onPoll();
      await this.forgetGoneSinks();
    }
    // A paused sink gets nothing (its rows wait in the outbox); its lease and connection are let go.
    const sinks = this.sinksNow().filter((s) => !s.paused);
    const live = new Set(sinks.map((s) => s.id));
    for (const id of this.held.keys()) if (!live.has(id)) this.held.delete(id);
    for (const [id, { transport }] of this.transports) {
      if (live.has(id)) continue;
      this.transports.delete(id);
      await transport.close().catch(() => undefined);
    }
    let earliestRetry = Infinity;
    await Promise.all(
      sinks.map(async (sink) => {
        earliestRetry = Math.min(earliestRetry, await this.deliverSink(sink));
      }),
    );
    this.scheduleRetry(earliestRetry);
  }

  /**
   * A sink deleted through another process may still get outbox rows from processes that have not
   * reloaded yet (for up to a poll): once every process has, what is left for it is removed.
   */
  private async forgetGoneSinks(): Promise<void> {
    const live = new Set(this.sinksNow().map((s) => s.id));
    for (const id of this.known) if (!live.has(id) && !this.gone.has(id)) this.gone.set(id, Date.now());
    this.known = live;
    for (const [id, since] of this.gone) {
      if (Date.now() - since < 3 * this.options.pollMs) continue;
      this.log.sinkForgotten(id, await deleteOutboxOf(this.db, id));
      this.gone.delete(id);
    }
  }

  private scheduleRetry(at: number): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!Number.isFinite(at) || this.closed) return;
    const delay = Math.max(0, at - this.options.now());
    if (delay >= this.options.pollMs) return; // the poll comes first
    this.retryTimer = setTimeout(() => this.wake(), delay);
    this.retryTimer.unref();
  }

  private transportFor(sink: Sink): Transport {
    const known = this.transports.get(sink.id);
    if (known) return known.transport;
    const transport = this.connect(sink);
    this.transports.set(sink.id, { url: sink.url, transport });
    return transport;
  }

  private async holdLease(sink: Sink): Promise<boolean> {
    const now = this.options.now();
    // Held for more than half its time yet: no need to ask the database (the heartbeat renews it).
    if ((this.held.get(sink.id) ?? -Infinity) - now > this.options.leaseMs / 2) return true;
    const until = now + this.options.leaseMs;
    const held = await takeSinkLease(this.db, sink.id, this.owner, now, until);
    if (held) this.held.set(sink.id, until);
    else {
      this.held.delete(sink.id);
      // Another process holds the sink now and sends those again (in doubt, as far as it knows).
      this.unrecorded.delete(sink.id);
    }
    return held;
  }

  /** Deletes what the sink took while the database was away; false while it still is. */
  private async recordUnrecorded(sinkId: string): Promise<boolean> {
    const seqs = this.unrecorded.get(sinkId);
    if (!seqs) return true;
    try {
      await deleteDelivered(this.db, seqs);
    } catch {
      return false;
    }
    this.unrecorded.delete(sinkId);
    return true;
  }

  /** Delivers what is due for one sink while this process holds it; returns the next retry's time. */
  private async deliverSink(sink: Sink): Promise<number> {
    let earliestRetry = Infinity;
    const attemptMs = Math.min(ATTEMPT_MS, Math.floor(this.options.leaseMs / 4));
    while (!this.closed && (await this.holdLease(sink))) {
      if (!(await this.recordUnrecorded(sink.id))) break;
      const { rows, nextRetry } = await dueRows(this.db, sink.id, this.options.now(), ROUND_ROWS);
      earliestRetry = Math.min(earliestRetry, nextRetry);
      const lanes = lanesOf(rows);
      if (lanes.length === 0) break;
      const lane = {
        marks: sendingMarks(this.db, { id: sink.id, owner: this.owner }),
        transport: this.transportFor(sink),
        retry: this.options.retry,
        now: this.options.now,
        attemptMs,
      };
      const tally = emptyTally();
      await inParallel(lanes, this.options.lanes, (rows) => sendLane(this.db, lane, rows, tally));
      earliestRetry = Math.min(earliestRetry, tally.earliestRetry);
      if (tally.unrecorded.length > 0) this.unrecorded.set(sink.id, tally.unrecorded);
      // Asked of the database again next time (renewed, or taken over by another process).
      if (tally.leaseShort) this.held.delete(sink.id);
      for (const { eventId, deviceId } of tally.inDoubt) this.log.resentInDoubt(sink.id, eventId, deviceId);
      const { delivered, failed, dead, lastError: error } = tally;
      this.log.round({ sinkId: sink.id, delivered, failed, dead, error, inDoubt: tally.inDoubt.length });
      if (tally.leaseShort || tally.unrecorded.length > 0) break;
      if (rows.length < ROUND_ROWS && failed > 0) break;
      if (delivered === 0) break;
    }
    return earliestRetry;
  }
}
