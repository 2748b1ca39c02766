import type { Authorizer } from '../auth/authorizer.js';
import type { Config } from '../config/types.js';
import type { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { NetworkMonitor, NetworkType } from '../ports/network.js';
import type { LocationQueueStore, StoredRecord } from '../ports/store.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import { decideAutoUpload, type AutoTrigger } from '../queue/upload-policy.js';
import { Uploader } from '../queue/uploader.js';
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
}

/**
 * The sync scheduler: owns the uploader and everything that decides when it runs: the automatic
 * triggers of spec 7.3, the network's changes, and a server's Retry-After.
 */
export class SyncScheduler {
  private readonly uploader: Uploader;
  private readonly unsubscribeNetwork: () => void;
  private active = false;
  private closed = false;
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
      onHttp: (event) => deps.events.emit('http', event),
      onResponse: deps.onResponse,
      beforeFlush: deps.beforeFlush,
      onDefer: (until, status) => this.defer(until, status),
    });
    this.unsubscribeNetwork = deps.network.subscribe((type) => this.onNetworkChange(type));
  }

  /** Automatic uploads start once the SDK is ready (the first ready()). */
  activate(): void {
    this.active = true;
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
    const result = await this.uploader.drain(true);
    return result.records.map((r: StoredRecord) => JSON.parse(r.json) as Location);
  }

  /** An automatic trigger (spec 7.3): uploads when the policy allows and nothing is running. */
  async trigger(trigger: AutoTrigger): Promise<void> {
    if (!this.active || this.closed || this.uploader.busy) return;
    const { http } = this.deps.config();
    if (!http.url || !http.autoSync) return;
    const decision = decideAutoUpload(trigger, {
      http,
      network: this.deps.network.current(),
      // Counting is only needed for a threshold; without one, an upload of an empty queue is a
      // single indexed read, cheaper than counting a long backlog on every location.
      queued: http.autoSyncThreshold > 0 ? await this.deps.queue.count() : 1,
    });
    // close() may have begun while the queue was being counted.
    if (this.closed) return;
    if (!decision.upload) {
      if (decision.reason !== 'queue empty')
        this.deps.logger.debug('HTTP', `no upload on ${trigger}: ${decision.reason}`);
      return;
    }
    try {
      await this.uploader.drain(false);
    } catch (error) {
      this.deps.logger.error('HTTP', `automatic upload failed: ${(error as Error).message}`);
    }
  }

  /** Resolves when no upload is running. */
  idle(): Promise<void> {
    return this.uploader.idle();
  }

  /** Stops reacting to triggers and waits for a running upload. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribeNetwork();
    await this.uploader.idle();
  }

  private defer(until: number, status: number): void {
    this.deferredUntil = Math.max(this.deferredUntil ?? 0, until);
    this.deps.logger.warn(
      'HTTP',
      `${status} with Retry-After: automatic uploads wait until ${new Date(this.deferredUntil).toISOString()}`,
    );
  }

  private onNetworkChange(type: NetworkType): void {
    const connected = type !== 'none';
    this.deps.logger.info('Network', `connectivity: ${type}`);
    this.deps.events.emit('connectivitychange', { connected, type });
    if (connected) void this.trigger('connectivity');
  }
}
