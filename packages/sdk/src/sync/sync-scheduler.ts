import type { Authorizer } from '../auth/authorizer.js';
import type { Tombstones } from '../ledger/tombstones.js';
import type { DeviceHealth } from '../health/device-health.js';
import type { ReceiptKeeper } from '../receipts/receipt-keeper.js';
import { OneShotTimer } from '../clock/one-shot-timer.js';
import type { Config } from '../config/types.js';
import type { Emitter } from '../events/emitter.js';
import type { HttpEvent, SdkEvents } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { NetworkMonitor, NetworkType } from '../ports/network.js';
import type { LocationQueueStore, StoredRecord } from '../ports/store.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import type { UploadGate } from '../ports/upload-gate.js';
import type { AppStateMonitor } from '../ports/app-state.js';
import type { KeyValueStore } from '../ports/store.js';
import { decideAutoUpload, type AutoTrigger } from '../queue/upload-policy.js';
import { Uploader } from '../queue/uploader.js';
import { PresenceReports } from './presence-reports.js';
import type { Location } from '../records/location.js';

export interface SyncSchedulerDeps {
  queue: LocationQueueStore;
  transport: Transport;
  network: NetworkMonitor;
  clock: Clock;
  logger: SdkLogger;
  events: Emitter<SdkEvents>;
  authorizer: Authorizer;
  config: () => Config;
  /** Remote commands carried by a response. */
  onResponse: (response: HttpResponse) => Promise<void>;
  /** Retention, run before each flush so expired records are never uploaded. */
  beforeFlush: () => Promise<void>;
  /** Whether this instance leads the uploads of a shared queue (OPEN_GATE: it always does). */
  gate: UploadGate;
  /** The app's foreground state, where the platform has one: coming back is a retry trigger. */
  appState: AppStateMonitor | undefined;
  /** Where a server's Retry-After is kept, so that every instance on the queue honours it. */
  kv: KeyValueStore;
  /** Dropped sequence numbers to report with uploads (the delivery ledger). */
  tombstones: Tombstones;
  /** The device health report sent with uploads (issue 31). */
  health?: DeviceHealth;
  /** Delivery receipts asked of servers that offer them (issue 46). */
  receipts?: ReceiptKeeper;
}

/** The kv key of the instant before which no automatic upload starts (a server's Retry-After). */
const RETRY_AFTER_KEY = 'sync.retryAfter';

/** Triggers that only repeat an attempt; after a failure they wait for the next one. */
const PLAIN_RETRIES: ReadonlySet<AutoTrigger> = new Set(['location', 'heartbeat', 'retry']);

/**
 * The sync scheduler: owns the uploader and everything that decides when it runs: the automatic
 * triggers of spec 7.3 (remembered, never dropped, while an upload runs), the periodic retry that
 * stands in for background fetch, the network's changes, and a server's Retry-After.
 */
export class SyncScheduler {
  private readonly uploader: Uploader;
  private readonly unsubscribe: (() => void)[];
  private readonly retryTimer: OneShotTimer;
  private readonly deferralTimer: OneShotTimer;
  private readonly presence: PresenceReports;
  private active = false;
  private closed = false;
  /** Triggers waiting to be evaluated (coalesced: one evaluation covers any number of them). */
  private readonly pending = new Set<AutoTrigger>();
  /** The uploader's failed-drain count when the oldest pending trigger arrived. */
  private failuresBeforePending = 0;
  /** A motion change asked for a flush of everything that has not happened yet (spec 3 rule 3). */
  private motionFlushOwed = false;
  /** The loop that evaluates pending triggers, one at a time; null when idle. */
  private loop: Promise<void> | null = null;
  /** Epoch ms before which no automatic upload starts (Retry-After); null when none is asked. */
  private deferredUntil: number | null = null;

  constructor(private readonly deps: SyncSchedulerDeps) {
    this.uploader = new Uploader({
      queue: deps.queue,
      transport: deps.transport,
      logger: deps.logger,
      authorizer: deps.authorizer,
      clock: deps.clock,
      config: deps.config,
      onHttp: (event) => this.onHttp(event),
      onResponse: deps.onResponse,
      beforeFlush: deps.beforeFlush,
      onDefer: (until, status) => this.defer(until, status),
      tombstones: deps.tombstones,
      kv: deps.kv,
      ...(deps.health ? { health: deps.health } : {}),
      ...(deps.receipts ? { receipts: deps.receipts } : {}),
    });
    // Upkeep timers: they never keep a process alive by themselves.
    this.retryTimer = new OneShotTimer(deps.clock, { background: true });
    this.deferralTimer = new OneShotTimer(deps.clock, { background: true });
    this.presence = new PresenceReports({
      clock: deps.clock,
      config: deps.config,
      logger: deps.logger,
      network: deps.network,
      gate: deps.gate,
      health: deps.health,
      uploader: this.uploader,
      retryAfter: () => this.retryAfter,
    });
    this.unsubscribe = [
      deps.network.subscribe((type) => this.onNetworkChange(type)),
      // Leading now: what the other instances queued is this one's to upload.
      deps.gate.onOpen(() => void this.trigger('start')),
      deps.gate.onQueuedElsewhere(() => void this.trigger('location')),
      deps.appState?.onResume(() => void this.trigger('resume')) ?? (() => {}),
    ];
  }

  /** Automatic uploads start once the SDK is ready (the first ready()), with the periodic retry. */
  activate(): void {
    this.active = true;
    this.scheduleRetry();
    this.presence.schedule();
  }

  /**
   * Right after open: a Retry-After that another instance on this queue was given (the page, when
   * this is its service worker) still holds.
   */
  async restore(): Promise<void> {
    const saved = Number(await this.deps.kv.get(RETRY_AFTER_KEY));
    if (Number.isFinite(saved) && saved > this.deps.clock.now()) this.holdUntil(saved);
  }

  /** http.retryInterval changed: the next periodic retry is counted from now. */
  retryIntervalChanged(): void {
    if (this.active && !this.closed) this.scheduleRetry();
  }

  /** http.presenceInterval changed: the next presence report is due that long after the last upload. */
  presenceIntervalChanged(): void {
    if (this.active && !this.closed) this.presence.schedule();
  }

  /** When automatic uploads may resume after a Retry-After; null when none holds them. */
  get retryAfter(): number | null {
    return this.deferredUntil !== null && this.deferredUntil > this.deps.clock.now() ? this.deferredUntil : null;
  }

  /**
   * Uploads the queue now, whatever autoSync, the threshold, the Wi-Fi policy or a Retry-After
   * say. Waits for a running upload and then drains what remains.
   */
  async sync(): Promise<Location[]> {
    // Not leading: the leader runs it and answers with what it delivered; when none answers, it
    // runs here (the store's record locks keep two instances from taking the same record).
    if (!this.deps.gate.open) {
      const forwarded = await this.deps.gate.forwardSync();
      if (forwarded) return forwarded;
    }
    const result = await this.uploader.drain(true);
    return result.records.map((r: StoredRecord) => JSON.parse(r.json) as Location);
  }

  /**
   * An automatic trigger (spec 7.3). It is remembered and evaluated as soon as no upload runs;
   * triggers that arrive meanwhile are coalesced into one evaluation. Resolves once evaluated.
   */
  trigger(trigger: AutoTrigger): Promise<void> {
    if (!this.active || this.closed) return Promise.resolve();
    // Without a url or with autoSync off no trigger can upload (rule 4): nothing to remember, but
    // autoSync off is a hold the delivery that ends it says (`was`), as for any hold.
    const { http } = this.deps.config();
    if (http.url && !http.autoSync) this.deps.health?.noteHold();
    if (!http.url || !http.autoSync) return Promise.resolve();
    if (!this.deps.gate.open) {
      // Another instance leads: it uploads what is recorded here, once told.
      if (trigger === 'location' || trigger === 'motionchange') this.deps.gate.queuedHere();
      return Promise.resolve();
    }
    if (trigger === 'motionchange') this.motionFlushOwed = true;
    if (this.pending.size === 0) this.failuresBeforePending = this.uploader.failedDrains;
    this.pending.add(trigger);
    this.kick();
    return this.loop ?? Promise.resolve();
  }

  /** Resolves when no automatic upload is running or pending (and no sync() is running). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.loop) await this.loop;
      else if (this.uploader.busy) await this.uploader.idle();
      else return;
    }
  }

  /** Stops reacting to triggers and waits for a running upload. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.clear();
    this.retryTimer.clear();
    this.deferralTimer.clear();
    this.presence.close();
    this.unsubscribe.forEach((unsubscribe) => unsubscribe());
    await this.idle();
  }

  private kick(): void {
    if (this.loop || this.closed || this.pending.size === 0) return;
    this.loop = this.evaluatePending().finally(() => {
      this.loop = null;
      // A trigger that arrived as the loop was finishing.
      this.kick();
    });
  }

  private async evaluatePending(): Promise<void> {
    while (this.pending.size > 0 && !this.closed) {
      // A sync() in progress finishes first; its outcome is part of what is evaluated.
      await this.uploader.idle();
      const triggers = [...this.pending];
      this.pending.clear();
      // After an upload failed while they waited, plain retries wait for the next trigger (the
      // failing server is not asked again at once); a new connection, start, ready and an owed
      // motion-change flush still go ahead.
      const failedMeanwhile = this.uploader.failedDrains > this.failuresBeforePending;
      const kept = failedMeanwhile ? triggers.filter((t) => !PLAIN_RETRIES.has(t)) : triggers;
      // The periodic retry, when present, is the one evaluated: it may probe a blind monitor.
      if (kept.length > 0) await this.evaluate(kept.includes('retry') ? 'retry' : kept[0]!);
    }
  }

  private async evaluate(trigger: AutoTrigger): Promise<void> {
    // A motion-change flush that could not run yet still ignores the threshold when it can.
    const effective: AutoTrigger = this.motionFlushOwed ? 'motionchange' : trigger;
    const { http } = this.deps.config();
    if (!http.url || !http.autoSync || !this.deps.gate.open) return;
    const deferred = this.retryAfter;
    if (deferred !== null) {
      this.deps.logger.debug('HTTP', `no upload on ${trigger}: Retry-After until ${new Date(deferred).toISOString()}`);
      this.deps.health?.noteHold();
      return;
    }
    const decision = decideAutoUpload(effective, {
      http,
      network: this.networkFor(trigger),
      // Counting is only needed for a threshold; without one, an upload of an empty queue is a
      // single indexed read, cheaper than counting a long backlog on every location.
      queued: http.autoSyncThreshold > 0 ? await this.deps.queue.count() : 1,
    });
    // close() may have begun while the queue was being counted.
    if (this.closed) return;
    if (!decision.upload) {
      if (decision.reason === 'queue empty') this.motionFlushOwed = false;
      else {
        this.deps.logger.debug('HTTP', `no upload on ${trigger}: ${decision.reason}`);
        this.deps.health?.noteHold();
      }
      return;
    }
    try {
      const result = await this.uploader.drain(false);
      if (!result.failed) this.motionFlushOwed = false;
    } catch (error) {
      this.deps.logger.error('HTTP', `automatic upload failed: ${(error as Error).message}`);
    }
  }

  /**
   * The periodic retry probes a monitor that learns from uploads even when it says `none`: a
   * detection that cannot see the link in use is then corrected by the probe's response.
   */
  private networkFor(trigger: AutoTrigger): NetworkType {
    const { network } = this.deps;
    const type = network.current();
    return type === 'none' && trigger === 'retry' && network.hint ? 'ethernet' : type;
  }

  private onHttp(event: HttpEvent): void {
    this.presence.contact();
    // A response proves the network works; a failed request is a reason to look again.
    this.deps.network.hint?.(event.status > 0 ? 'reachable' : 'unreachable');
    this.deps.events.emit('http', event);
  }

  private defer(until: number, status: number): void {
    this.holdUntil(until);
    const at = new Date(this.deferredUntil!).toISOString();
    this.deps.logger.warn('HTTP', `${status} with Retry-After: automatic uploads wait until ${at}`);
    this.deps.kv
      .set(RETRY_AFTER_KEY, String(this.deferredUntil))
      .catch((error: Error) => this.deps.logger.error('HTTP', `Retry-After not saved: ${error.message}`));
  }

  private holdUntil(until: number): void {
    this.deferredUntil = Math.max(this.deferredUntil ?? 0, until);
    this.deferralTimer.schedule(this.deferredUntil - this.deps.clock.now(), () => void this.trigger('retry'));
  }

  /** The periodic retry: while open, started or stopped; an empty queue costs one indexed read. */
  private scheduleRetry(): void {
    this.retryTimer.schedule(this.deps.config().http.retryInterval * 1000, () => {
      if (this.closed) return;
      this.scheduleRetry();
      void this.trigger('retry');
    });
  }

  private onNetworkChange(type: NetworkType): void {
    const connected = type !== 'none';
    this.deps.logger.info('Network', `connectivity: ${type}`);
    this.deps.events.emit('connectivitychange', { connected, type });
    if (connected) void this.trigger('connectivity');
  }
}
