import type { AuthorizationStatus } from './auth/token-authorizer.js';
import { cloneConfig } from './config/fields.js';
import { loadConfig, type StoredConfig } from './config/persisted-config.js';
import type { Config, ConfigInput } from './config/types.js';
import type { DeviceInfo } from './device.js';
import type { Emitter, Subscription } from './events/emitter.js';
import type { SdkEvents } from './events/types.js';
import type { Geofence } from './geofence/geofence.js';
import type { SdkLogger } from './log/logger.js';
import type { LocationQuery } from './queue/queue-records.js';
import type { Location } from './records/location.js';
import { composeSdk, type BackgroundGeolocationDeps, type SdkParts } from './sdk/compose.js';
import type { ConfigEditor } from './session/config-session.js';
import { loadTrackingState, type TrackingMode, type TrackingState } from './tracking/persisted-state.js';

export type { BackgroundGeolocationDeps } from './sdk/compose.js';
export type { DeviceInfo } from './device.js';
export type { LocationQuery } from './queue/queue-records.js';

export type State = Config & {
  enabled: boolean;
  isMoving: boolean;
  trackingMode: TrackingMode;
  odometer: number;
  /** none (no tokens), ok, backoff (refresh failing, retrying later) or failed (refresh token refused). */
  authorizationStatus: AuthorizationStatus;
  /** Anchor configuration keys that were given but that Waypost does not act on. */
  ignored: Record<string, unknown>;
  /** ISO-8601 time before which automatic uploads wait, as a server's Retry-After asked; null when none. */
  retryAfter: string | null;
};

/**
 * The SDK: the public API of DESIGN section 3, a thin facade over the parts composeSdk wires (the
 * configuration session, tracking, the sync scheduler, retention, the lifecycle, log upload). Both
 * binding styles land in the same methods (`ready(config)` and `ready(fn)`, `setConfig` and
 * `config.edit`, `sync` and `store.sync`).
 */
export class BackgroundGeolocation {
  readonly events: Emitter<SdkEvents>;
  readonly log: SdkLogger;
  /** Property style: `config.edit(c => { c.http.url = '...' })`. */
  readonly config: { edit: (fn: ConfigEditor) => Promise<State>; readonly current: Config };
  /** Property style: `store.sync()`, `store.getCount()`, ... */
  readonly store: {
    sync: () => Promise<Location[]>;
    getCount: () => Promise<number>;
    getLocations: (query?: LocationQuery) => Promise<unknown[]>;
    destroyLocations: () => Promise<number>;
    destroyLocation: (uuid: string) => Promise<boolean>;
  };
  readonly logger: {
    getLog: (query?: { since?: number; limit?: number }) => Promise<string>;
    destroyLog: () => Promise<void>;
    uploadLog: (url: string) => Promise<{ status: number }>;
  };
  readonly device: DeviceInfo;

  private readonly parts: SdkParts;

  protected constructor(deps: BackgroundGeolocationDeps, stored: StoredConfig, tracking: TrackingState) {
    this.parts = composeSdk(deps, stored, tracking, this);
    this.events = this.parts.events;
    this.log = this.parts.log;
    this.device = this.parts.device;
    const session = this.parts.session;
    this.config = {
      edit: async (fn) => {
        this.parts.lifecycle.assertOpen();
        await session.edit(fn);
        return this.getState();
      },
      get current() {
        return session.config;
      },
    };
    this.store = {
      sync: () => this.sync(),
      getCount: () => this.getCount(),
      getLocations: (query) => this.getLocations(query),
      destroyLocations: () => this.destroyLocations(),
      destroyLocation: (uuid) => this.destroyLocation(uuid),
    };
    this.logger = {
      getLog: (query) => this.log.text(query),
      destroyLog: () => this.log.destroy(),
      uploadLog: (url) => this.uploadLog(url),
    };
  }

  /**
   * Opens the SDK on a store: restores the saved configuration and state, releases the locks a
   * crash left behind, and applies retention. Queue reads work from here on, before ready().
   */
  static async open(deps: BackgroundGeolocationDeps): Promise<BackgroundGeolocation> {
    const { stored, problem } = await loadConfig(deps.store.kv);
    const tracking = await loadTrackingState(deps.store.kv);
    const bg = new this(deps, stored, tracking);
    await bg.parts.lifecycle.initialize(problem);
    return bg;
  }

  // ---------------------------------------------------------------- configuration

  /** Object style `ready(config)` or property style `ready(c => { ... })`. */
  async ready(config: ConfigInput | ConfigEditor = {}): Promise<State> {
    await this.parts.lifecycle.ready(config);
    return this.getState();
  }

  /** Object style: merges a partial configuration into the running one. */
  async setConfig(config: ConfigInput): Promise<State> {
    this.parts.lifecycle.assertOpen();
    await this.parts.session.set(config);
    return this.getState();
  }

  getState(): State {
    const { session, tracker, authorizer, scheduler } = this.parts;
    return {
      ...cloneConfig(session.config),
      enabled: tracker.state.enabled,
      isMoving: tracker.state.isMoving,
      trackingMode: tracker.state.trackingMode,
      odometer: tracker.state.odometer,
      authorizationStatus: authorizer.status,
      ignored: { ...session.ignored },
      retryAfter: scheduler.retryAfter === null ? null : new Date(scheduler.retryAfter).toISOString(),
    };
  }

  // ---------------------------------------------------------------- tracking

  async start(): Promise<State> {
    await this.parts.lifecycle.start('location', 'start');
    return this.getState();
  }

  /** Geofences-only mode: only geofence records are queued. */
  async startGeofences(): Promise<State> {
    await this.parts.lifecycle.start('geofences', 'startGeofences');
    return this.getState();
  }

  async stop(): Promise<State> {
    await this.parts.lifecycle.stop();
    return this.getState();
  }

  /** Forces the motion state; entering either state flushes the queue whatever the threshold. */
  async changePace(isMoving: boolean): Promise<State> {
    if (typeof isMoving === 'boolean') this.parts.lifecycle.assertStarted('changePace');
    await this.parts.tracker.changePace(isMoving);
    return this.getState();
  }

  /** A location from the device's provider (requires start()): odometer, motion, geofences, queue. */
  async recordLocation(input: unknown): Promise<Location> {
    this.parts.lifecycle.assertStarted('recordLocation');
    return this.parts.tracker.recordLocation(input);
  }

  /** A raw insert that works in any state (imports, tests, a provider with its own logic). */
  async insertLocation(input: unknown): Promise<Location> {
    this.parts.lifecycle.assertOpen();
    return this.parts.tracker.insertLocation(input);
  }

  // ---------------------------------------------------------------- geofences

  async addGeofence(geofence: unknown): Promise<Geofence> {
    this.parts.lifecycle.assertOpen();
    return this.parts.geofencing.add(geofence);
  }

  /** Adds all or none: one invalid geofence rejects the whole list. */
  async addGeofences(geofences: unknown): Promise<Geofence[]> {
    this.parts.lifecycle.assertOpen();
    return this.parts.geofencing.addAll(geofences);
  }

  async removeGeofence(identifier: string): Promise<boolean> {
    this.parts.lifecycle.assertOpen();
    return (await this.parts.geofencing.remove([identifier])) > 0;
  }

  /** Removes the listed geofences, or all of them when no list is given. */
  async removeGeofences(identifiers?: string[]): Promise<number> {
    this.parts.lifecycle.assertOpen();
    return this.parts.geofencing.remove(identifiers);
  }

  async getGeofences(): Promise<Geofence[]> {
    return this.parts.geofencing.all();
  }

  // ---------------------------------------------------------------- queue and uploads

  async getCount(): Promise<number> {
    return this.parts.records.count();
  }

  /** Records as stored (parsed JSON), paged in the store: never the whole queue unless asked. */
  async getLocations(query: LocationQuery = {}): Promise<unknown[]> {
    return this.parts.records.list(query);
  }

  async destroyLocations(): Promise<number> {
    return this.parts.records.destroyAll();
  }

  async destroyLocation(uuid: string): Promise<boolean> {
    return this.parts.records.destroy(uuid);
  }

  /**
   * Uploads the queue now, whatever autoSync, the threshold or the Wi-Fi policy say. Waits for a
   * running upload and then drains what remains. Resolves with the records it delivered.
   */
  async sync(): Promise<Location[]> {
    this.parts.lifecycle.assertOpen();
    return this.parts.scheduler.sync();
  }

  /**
   * Resolves when no automatic upload is running or pending: triggers already made have been
   * evaluated and their uploads (and any log upload a server asked for) have ended.
   */
  async idle(): Promise<void> {
    await this.parts.lifecycle.idle();
  }

  /** POSTs the SDK log, gzipped, as multipart form data with the device's description. */
  private async uploadLog(url: string): Promise<{ status: number }> {
    this.parts.lifecycle.assertOpen();
    return this.parts.logUploader.upload(url);
  }

  // ---------------------------------------------------------------- events

  onHttp(listener: (event: SdkEvents['http']) => void): Subscription {
    return this.events.on('http', listener);
  }
  onLocation(listener: (event: SdkEvents['location']) => void): Subscription {
    return this.events.on('location', listener);
  }
  onMotionChange(listener: (event: SdkEvents['motionchange']) => void): Subscription {
    return this.events.on('motionchange', listener);
  }
  onConnectivityChange(listener: (event: SdkEvents['connectivitychange']) => void): Subscription {
    return this.events.on('connectivitychange', listener);
  }
  onHeartbeat(listener: (event: SdkEvents['heartbeat']) => void): Subscription {
    return this.events.on('heartbeat', listener);
  }
  onAuthorization(listener: (event: SdkEvents['authorization']) => void): Subscription {
    return this.events.on('authorization', listener);
  }
  onGeofence(listener: (event: SdkEvents['geofence']) => void): Subscription {
    return this.events.on('geofence', listener);
  }
  onEnabledChange(listener: (event: SdkEvents['enabledchange']) => void): Subscription {
    return this.events.on('enabledchange', listener);
  }
  onRemoteCommand(listener: (event: SdkEvents['remotecommand']) => void): Subscription {
    return this.events.on('remotecommand', listener);
  }
  /** Records removed without delivery, with the reason (ttl, cap, destroyed) and how many. */
  onDrop(listener: (event: SdkEvents['drop']) => void): Subscription {
    return this.events.on('drop', listener);
  }

  // ---------------------------------------------------------------- shutdown

  /** Waits for a running upload, writes the log and state, and closes the store. */
  async close(): Promise<void> {
    await this.parts.lifecycle.close();
  }
}
