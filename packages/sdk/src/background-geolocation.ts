import type { EventSource } from './anchor/anchor-events.js';
import { AnchorDeviceApi } from './anchor/device-api.js';
import { createAnchorLogger, type AnchorLogger } from './anchor/anchor-logger.js';
import { anchorState, type State } from './anchor/anchor-state.js';
import { bindMethods } from './anchor/bind-methods.js';
import { loadConfig, type StoredConfig } from './config/persisted-config.js';
import type { ConfigInput } from './config/input-types.js';
import type { Config, LogLevelName } from './config/types.js';
import type { LogLevelInput } from './config/input-types.js';
import type { DeviceInfo } from './device.js';
import { WaypostError } from './errors.js';
import type { Emitter } from './events/emitter.js';
import type { SdkEvents } from './events/types.js';
import type { Geofence } from './geofence/geofence.js';
import type { SdkLogger } from './log/logger.js';
import type { LocationQuery } from './queue/queue-records.js';
import type { Location } from './records/location.js';
import { composeSdk, type BackgroundGeolocationDeps, type SdkParts } from './sdk/compose.js';
import type { ConfigEditor } from './session/config-session.js';
import { loadTrackingState, type TrackingState } from './tracking/persisted-state.js';

export type { BackgroundGeolocationDeps } from './sdk/compose.js';
export type { DeviceInfo } from './device.js';
export type { LocationQuery } from './queue/queue-records.js';
export type { State } from './anchor/anchor-state.js';

export type { AnchorDeviceInfo } from './anchor/device-api.js';

/**
 * The SDK: the anchor's API (signatures, results and event payloads as its types declare them)
 * over the parts composeSdk wires. Every method is bound once at creation, so detached methods
 * work (`const { getCount } = bg`). Waypost's richer results stay reachable: `store.*` returns the
 * stored record and removal counts, `config.current` the resolved configuration.
 */
export class BackgroundGeolocation extends AnchorDeviceApi {
  readonly events: Emitter<SdkEvents>;
  readonly log: SdkLogger;
  /** Property style: `config.edit(c => { c.http.url = '...' })`; `current`: the resolved configuration. */
  readonly config: { edit: (fn: ConfigEditor) => Promise<State>; readonly current: Config };
  /** Property style, with Waypost's richer results (the stored record, counts). */
  readonly store: {
    sync: () => Promise<Location[]>;
    getCount: () => Promise<number>;
    getLocations: (query?: LocationQuery) => Promise<object[]>;
    insertLocation: (input: unknown) => Promise<Location>;
    destroyLocations: () => Promise<number>;
    destroyLocation: (uuid: string) => Promise<boolean>;
    removeGeofences: (identifiers?: string[]) => Promise<number>;
  };
  readonly logger: AnchorLogger;
  readonly device: DeviceInfo;

  protected readonly parts: SdkParts;
  protected readonly eventSource: EventSource;

  protected constructor(deps: BackgroundGeolocationDeps, stored: StoredConfig, tracking: TrackingState) {
    super();
    const parts = (this.parts = composeSdk(deps, stored, tracking, this));
    this.events = parts.events;
    this.log = parts.log;
    this.device = parts.device;
    this.eventSource = { events: parts.events, clock: parts.clock, knownLocation: () => parts.tracker.knownLocation() };
    const { session, lifecycle, records } = parts;
    this.config = {
      edit: async (fn) => {
        lifecycle.assertOpen();
        await session.edit(fn);
        return this.getState();
      },
      get current() {
        return session.config;
      },
    };
    this.store = {
      sync: () => this.sync(),
      getCount: () => records.count(),
      getLocations: (query) => this.getLocations(query),
      insertLocation: async (input) => {
        lifecycle.assertOpen();
        return parts.tracker.insertLocation(input);
      },
      destroyLocations: () => records.destroyAll(),
      destroyLocation: (uuid) => records.destroy(uuid),
      removeGeofences: async (identifiers) => {
        lifecycle.assertOpen();
        return parts.geofencing.remove(identifiers);
      },
    };
    this.logger = createAnchorLogger({
      log: parts.log,
      assertOpen: () => lifecycle.assertOpen(),
      upload: (url, query) => parts.logUploader.upload(url, query),
      mail: deps.mail,
    });
    bindMethods(this);
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

  /** The anchor's reset(config): the defaults, then `config` over them. */
  async reset(config: ConfigInput = {}): Promise<State> {
    this.parts.lifecycle.assertOpen();
    await this.parts.session.ready({ ...config, reset: true });
    return this.getState();
  }

  /**
   * Waypost extension: picks up a configuration that another process sharing the database saved
   * (setConfig() from an app while `waypost agent` runs). Resolves with the keys that changed.
   */
  async reloadConfig(): Promise<string[]> {
    this.parts.lifecycle.assertOpen();
    return this.parts.session.reload();
  }

  async getState(): Promise<State> {
    const { session, tracker, authorizer } = this.parts;
    return anchorState(session.config, session.ignored, tracker.state, {
      authorizationStatus: authorizer.status,
      didDeviceReboot: false,
      retryAfter: this.parts.scheduler.retryAfter,
    });
  }

  /** Waypost: the tracking state, read synchronously (getState() is the anchor's async form). */
  get tracking(): Readonly<Pick<TrackingState, 'enabled' | 'isMoving' | 'trackingMode' | 'odometer'>> {
    const { enabled, isMoving, trackingMode, odometer } = this.parts.tracker.state;
    return { enabled, isMoving, trackingMode, odometer };
  }

  async setLogLevel(level: LogLevelInput | LogLevelName): Promise<void> {
    await this.setConfig({ logger: { logLevel: level } });
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

  /** Waypost: a location from the device's provider (requires start()); resolves with the record. */
  async recordLocation(input: unknown): Promise<Location> {
    this.parts.lifecycle.assertStarted('recordLocation');
    return this.parts.tracker.recordLocation(input);
  }

  /** A raw insert in any state; resolves with the uuid (a given one is kept). The record: store.insertLocation. */
  async insertLocation(input: unknown): Promise<string> {
    return (await this.store.insertLocation(input)).uuid;
  }

  // ---------------------------------------------------------------- geofences

  async addGeofence(geofence: unknown): Promise<boolean> {
    this.parts.lifecycle.assertOpen();
    await this.parts.geofencing.add(geofence);
    return true;
  }

  /** Adds all or none: one invalid geofence rejects the whole list. */
  async addGeofences(geofences: unknown): Promise<boolean> {
    this.parts.lifecycle.assertOpen();
    await this.parts.geofencing.addAll(geofences);
    return true;
  }

  async removeGeofence(identifier: string): Promise<boolean> {
    return (await this.store.removeGeofences([identifier])) > 0;
  }

  /** Removes the listed geofences, or all of them; true. The count: store.removeGeofences. */
  async removeGeofences(identifiers?: string[]): Promise<boolean> {
    await this.store.removeGeofences(identifiers);
    return true;
  }

  async getGeofences(): Promise<Geofence[]> {
    return this.parts.geofencing.all();
  }

  async getGeofence(identifier: string): Promise<Geofence> {
    const geofence = this.parts.geofencing.get(identifier);
    if (!geofence) throw new WaypostError('INVALID_GEOFENCE', `No geofence "${identifier}".`, 'identifier');
    return geofence;
  }

  async geofenceExists(identifier: string): Promise<boolean> {
    return this.parts.geofencing.get(identifier) !== undefined;
  }

  // ---------------------------------------------------------------- queue and uploads

  async getCount(): Promise<number> {
    return this.parts.records.count();
  }

  /** Records as stored (parsed JSON), paged in the store: never the whole queue unless asked. */
  async getLocations(query: LocationQuery = {}): Promise<object[]> {
    return (await this.parts.records.list(query)) as object[];
  }

  /** Empties the queue; true. The count removed: store.destroyLocations(). */
  async destroyLocations(): Promise<boolean> {
    await this.parts.records.destroyAll();
    return true;
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

  // ---------------------------------------------------------------- shutdown

  /** Waits for a running upload, writes the log and state, and closes the store. */
  async close(): Promise<void> {
    this.parts.positions.close();
    await this.parts.reregistration.idle();
    await this.parts.lifecycle.close();
  }
}
