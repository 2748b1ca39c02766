import type { Config } from '../config/types.js';
import type { ServerOffers } from '../http/server-offers.js';
import type { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import { uploadDeviceName } from '../log/log-device-id.js';
import { SDK_VERSION } from '../log/upload-log.js';
import type { Clock } from '../ports/clock.js';
import type { NetworkMonitor } from '../ports/network.js';
import type { LocationQueueStore } from '../ports/store.js';
import type { UploadOutcome } from '../queue/outcome.js';
import type { BatteryReader } from '../records/location.js';
import type { TrackingState } from '../tracking/persisted-state.js';
import { failureClassOf, holdOf, providerStateOf } from './health-classes.js';
import {
  formatHealthHeader,
  type FailureClass,
  type HealthReport,
  type Hold,
  type ProviderStateName,
} from './health-header.js';

export interface DeviceHealthDeps {
  clock: Clock;
  config: () => Config;
  queue: LocationQueueStore;
  network: NetworkMonitor;
  events: Emitter<SdkEvents>;
  tracking: TrackingState;
  /** When automatic uploads may resume after a Retry-After (the scheduler's), null when none holds. */
  retryAfter: () => number | null;
  /** Upload URLs whose server said it reads the report (kept across restarts: HEALTH_OFFERS_KEY). */
  offers: ServerOffers;
  battery?: BatteryReader;
}

/**
 * The kv key of the upload URLs whose server reads the report (http/server-offers.ts). Kept
 * across restarts: remembered in memory only, the first upload after every start went without
 * it, and a device back after a restart could not say why it had been silent.
 */
export const HEALTH_OFFERS_KEY = 'health.offers';

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/**
 * What the device knows about its own health, gathered as it happens (the last upload failure,
 * motion changes, the location source, the battery) and turned into a report when an upload is
 * sent (health-header.ts). The report goes only to upload URLs whose server said it reads it.
 */
export class DeviceHealth {
  private failure: { class: FailureClass; at: number; status: number } | null = null;
  private motionSince: number | null = null;
  private provider: ProviderStateName | undefined;
  private lastBattery: { level: number; charging: boolean } | undefined;
  /** The hold automatic uploads met since the last delivery: since when, last seen when. */
  private held: { kind: Hold; since: number; last: number } | null = null;
  /** When this instance started: `up` in the report. */
  private readonly startedAt: number;

  constructor(private readonly deps: DeviceHealthDeps) {
    this.startedAt = deps.clock.now();
    deps.events.on('motionchange', () => (this.motionSince = deps.clock.now()));
    deps.events.on('location', (location) => {
      const battery = location.battery;
      if (battery && battery.level >= 0) this.lastBattery = { level: battery.level, charging: battery.is_charging };
    });
  }

  /** What a response of `url` said: its Waypost-Health-Accepted header, if any, with its status. */
  heard(url: string, status: number, accepted: string | undefined): Promise<void> | undefined {
    return this.deps.offers.heard(url, status, accepted?.trim() === '1');
  }

  /** Whether uploads to `url` carry the report (a promise only until the kv has been read). */
  reads(url: string): boolean | Promise<boolean> {
    return this.deps.offers.has(url);
  }

  /** An automatic upload was held back: what holds it is remembered until the next delivery. */
  noteHold(): void {
    const now = this.deps.clock.now();
    const hold = holdOf(this.deps.config().http, this.deps.network.current(), this.deps.retryAfter(), now);
    if (!hold) return;
    if (this.held?.kind === hold.kind) this.held.last = now;
    else this.held = { kind: hold.kind, since: now, last: now };
  }

  /** An upload's outcome: a delivery clears the last failure, anything else becomes it. */
  outcome(outcome: UploadOutcome): void {
    const failure = failureClassOf(outcome);
    if (failure === null) this.held = null;
    this.failure = failure === null ? null : { class: failure, at: this.deps.clock.now(), status: outcome.status };
  }

  /** The location source delivered a fix, or failed with `code` (a provider's stable code). */
  providerStatus(status: { ok: true } | { ok: false; code: string | undefined }): void {
    this.provider = status.ok ? 'ok' : providerStateOf(status.code);
  }

  /** The report as of now. */
  async report(): Promise<HealthReport> {
    const { clock, config, queue, network, tracking } = this.deps;
    const now = clock.now();
    const queued = await queue.count();
    const oldest = queued > 0 ? (await queue.list({ order: 'ASC', limit: 1 }))[0] : undefined;
    const { http, app } = config();
    const net = network.current();
    const hold = holdOf(http, net, this.deps.retryAfter(), now);
    const battery = this.deps.battery?.();
    const device = uploadDeviceName(http);
    return {
      version: SDK_VERSION,
      clock: Math.floor(now / 1000),
      queued,
      ...(oldest ? { oldestAge: seconds(now - oldest.createdAt) } : {}),
      ...(this.failure
        ? {
            failure: {
              class: this.failure.class,
              ago: seconds(now - this.failure.at),
              ...(this.failure.status > 0 ? { status: this.failure.status } : {}),
            },
          }
        : {}),
      ...(hold ? { hold } : {}),
      ...(this.held && this.held.kind !== hold?.kind
        ? {
            was: {
              kind: this.held.kind,
              for: seconds(this.held.last - this.held.since),
              ago: seconds(now - this.held.last),
            },
          }
        : {}),
      network: net,
      wifiOnly: http.disableAutoSyncOnCellular,
      motion: {
        moving: tracking.isMoving,
        ...(this.motionSince === null ? {} : { for: seconds(now - this.motionSince) }),
      },
      ...(this.provider && tracking.enabled ? { provider: this.provider } : {}),
      ...(battery && battery.level >= 0
        ? { battery: { level: battery.level, charging: battery.is_charging } }
        : this.lastBattery
          ? { battery: this.lastBattery }
          : {}),
      tracking: tracking.enabled,
      stopOnTerminate: app.stopOnTerminate,
      up: seconds(now - this.startedAt),
      ...(device === null ? {} : { device }),
    };
  }

  /** The header's value for an upload to `url`, or null when its server does not read it. */
  header(url: string): null | Promise<string | null> {
    const reads = this.reads(url);
    if (reads === false) return null;
    return (async () => ((await reads) ? formatHealthHeader(await this.report()) : null))();
  }
}
