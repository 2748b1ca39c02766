import { TokenAuthorizer, type AuthorizationStatus } from './auth/token-authorizer.js';
import { systemClock } from './clock/system-clock.js';
import { applyConfigInput } from './config/apply.js';
import { cloneConfig, defaultConfig } from './config/fields.js';
import { loadConfig, saveConfig, type StoredConfig } from './config/persisted-config.js';
import type { Config, ConfigInput } from './config/types.js';
import { WaypostError } from './errors.js';
import { Emitter, type Subscription } from './events/emitter.js';
import type { SdkEvents } from './events/types.js';
import { GeofenceManager } from './geofence/geofence-manager.js';
import type { GeofenceTransition } from './geofence/evaluate.js';
import type { Geofence } from './geofence/geofence.js';
import { JSON_CONTENT_TYPE, mergeHeaders } from './http/headers.js';
import { SDK_VERSION, uploadLogFile } from './log/upload-log.js';
import { MotionDetector } from './motion/motion-detector.js';
import { RemoteController } from './remote/remote-controller.js';
import { commandHandlers } from './remote/sdk-command-handlers.js';
import { LogLevel } from './log/levels.js';
import { DAY_MS, SdkLogger } from './log/logger.js';
import { OneShotTimer } from './clock/one-shot-timer.js';
import type { Clock } from './ports/clock.js';
import type { NetworkMonitor, NetworkType } from './ports/network.js';
import type { OrderDirection, Store, StoredRecord } from './ports/store.js';
import type { Transport } from './ports/transport.js';
import { decideAutoUpload, type SyncTrigger } from './queue/upload-policy.js';
import { Uploader } from './queue/uploader.js';
import { parseLocationInput, type Fix, type Location } from './records/location.js';
import { buildLocation, RecordWriter } from './records/record-writer.js';
import { distanceMeters } from './tracking/odometer.js';
import {
  loadTrackingState,
  saveTrackingState,
  type TrackingMode,
  type TrackingState,
} from './tracking/persisted-state.js';

export interface DeviceInfo {
  uuid: string;
  model: string;
  manufacturer: string;
  platform: string;
  version: string;
}

export interface BackgroundGeolocationDeps {
  store: Store;
  transport: Transport;
  network: NetworkMonitor;
  clock?: Clock;
  device?: Partial<DeviceInfo>;
  /** Identifies the current boot of the host, so startOnBoot can tell a reboot from a restart. */
  bootId?: string;
  /** Defers work to the next turn of the event loop (log writes); defaults to setTimeout 0. */
  defer?: (fn: () => void) => void;
  /** Releases what the host adapter opened for this instance (a network watcher). */
  dispose?: () => void;
  /** Randomness for the refresh backoff's jitter; default Math.random. */
  random?: () => number;
}

export type State = Config & {
  enabled: boolean;
  isMoving: boolean;
  trackingMode: TrackingMode;
  odometer: number;
  /** none (no tokens), ok, backoff (refresh failing, retrying later) or failed (refresh token refused). */
  authorizationStatus: AuthorizationStatus;
  /** Anchor configuration keys that were given but that Waypost does not act on. */
  ignored: Record<string, unknown>;
};

export interface LocationQuery {
  limit?: number;
  offset?: number;
  order?: OrderDirection;
}

type ConfigEditor = (draft: Config & { reset?: boolean }) => void;

/**
 * The SDK: the public API of DESIGN section 3 over the ports. Both binding styles land in the same
 * methods (`ready(config)` and `ready(fn)`, `setConfig` and `config.edit`, `sync` and `store.sync`).
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

  private current: StoredConfig;
  private tracking: TrackingState;
  private readonly clock: Clock;
  private readonly uploader: Uploader;
  private readonly writer: RecordWriter;
  private readonly authorizer: TokenAuthorizer;
  private readonly geofences: GeofenceManager;
  private readonly motion: MotionDetector;
  private readonly remote: RemoteController;
  private readonly unsubscribeNetwork: () => void;
  private readonly heartbeat: OneShotTimer;
  private readonly stopTimer: OneShotTimer;
  private lastFix: Fix | null = null;
  private isReady = false;
  private closed = false;
  private noted = new Set<string>();

  protected constructor(
    protected readonly deps: BackgroundGeolocationDeps,
    stored: StoredConfig,
    tracking: TrackingState,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.current = stored;
    this.tracking = tracking;
    this.device = {
      uuid: deps.device?.uuid ?? 'unknown',
      model: deps.device?.model ?? 'unknown',
      manufacturer: deps.device?.manufacturer ?? 'unknown',
      platform: deps.device?.platform ?? 'unknown',
      version: deps.device?.version ?? 'unknown',
    };
    const defer = deps.defer ?? ((fn: () => void) => void setTimeout(fn, 0));
    this.log = new SdkLogger(deps.store.log, this.clock, defer);
    this.events = new Emitter<SdkEvents>((event, error) =>
      this.log.error('Events', `a ${event} listener threw: ${(error as Error)?.message ?? String(error)}`),
    );
    this.applyRuntime();
    this.heartbeat = new OneShotTimer(this.clock);
    this.stopTimer = new OneShotTimer(this.clock);
    this.writer = new RecordWriter({
      queue: deps.store.locations,
      logger: this.log,
      clock: this.clock,
      persistence: () => this.current.config.persistence,
    });
    this.authorizer = new TokenAuthorizer({
      config: () => this.current.config,
      // Tokens the SDK obtained itself are not a new configuration: the refresh backoff holds.
      saveTokens: (patch) =>
        this.commitConfig(this.current.config, { authorization: patch }, this.current.ignored, { fromRefresh: true }),
      transport: deps.transport,
      clock: this.clock,
      logger: this.log,
      emit: (event) => this.events.emit('authorization', event),
      ...(deps.random ? { random: deps.random } : {}),
    });
    this.geofences = new GeofenceManager({
      store: deps.store.geofences,
      kv: deps.store.kv,
      clock: this.clock,
      onTimedTransition: (transition) => void this.onTimedGeofence(transition),
    });
    this.motion = new MotionDetector(tracking.isMoving);
    this.remote = new RemoteController({
      handlers: commandHandlers(this, { upload: (url) => this.uploadLog(url), destroy: () => this.log.destroy() }),
      allowed: () => this.current.config.http.remoteCommands,
      logger: this.log,
      emit: (event) => this.events.emit('remotecommand', event),
    });
    this.uploader = new Uploader({
      queue: deps.store.locations,
      transport: deps.transport,
      logger: this.log,
      authorizer: this.authorizer,
      config: () => this.current.config,
      onHttp: (event) => this.events.emit('http', event),
      onResponse: (response) => this.remote.handleResponse(response.text),
      beforeFlush: () => this.applyRetention(),
    });
    this.unsubscribeNetwork = deps.network.subscribe((type) => this.onNetworkChange(type));
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter below needs the instance
    const self = this;
    this.config = {
      edit: (fn) => this.editConfig(fn),
      get current() {
        return self.current.config;
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
    await bg.initialize(problem);
    return bg;
  }

  private async initialize(configProblem: string | null): Promise<void> {
    if (configProblem) this.log.warn('Config', `saved configuration ignored, defaults used: ${configProblem}`);
    const released = await this.deps.store.locations.unlockAll();
    if (released > 0) this.log.warn('Queue', `released ${released} locks left by an interrupted upload`);
    await this.applyRetention();
    await this.log.prune(this.current.config.logger.logMaxDays);
    await this.geofences.load();
  }

  // ---------------------------------------------------------------- configuration

  /** Object style `ready(config)` or property style `ready(c => { ... })`. */
  async ready(config: ConfigInput | ConfigEditor = {}): Promise<State> {
    this.assertOpen();
    if (typeof config === 'function') {
      let draft = cloneConfig(defaultConfig()) as Config & { reset?: boolean };
      config(draft);
      const keep = draft.reset === false;
      if (keep) {
        // reset: false is only known once the editor ran; it must edit the saved configuration,
        // not the defaults (whose untouched fields would otherwise overwrite it).
        draft = cloneConfig(this.current.config) as Config & { reset?: boolean };
        config(draft);
      }
      const { reset: _reset, ...input } = draft;
      await this.commitConfig(keep ? this.current.config : defaultConfig(), input, keep ? this.current.ignored : {});
    } else {
      const reset = config.reset !== false;
      await this.commitConfig(reset ? defaultConfig() : this.current.config, config, reset ? {} : this.current.ignored);
    }
    const firstReady = !this.isReady;
    this.isReady = true;
    if (firstReady) await this.resumeAfterOpen();
    this.log.info('Lifecycle', `ready (enabled: ${this.tracking.enabled})`);
    void this.trigger('ready');
    return this.getState();
  }

  /** Object style: merges a partial configuration into the running one. */
  async setConfig(config: ConfigInput): Promise<State> {
    this.assertOpen();
    await this.commitConfig(this.current.config, config, this.current.ignored);
    return this.getState();
  }

  private async editConfig(fn: ConfigEditor): Promise<State> {
    this.assertOpen();
    const draft = cloneConfig(this.current.config);
    fn(draft);
    await this.commitConfig(this.current.config, draft, this.current.ignored);
    return this.getState();
  }

  /** Validates completely, then persists, then switches: a rejected input changes nothing. */
  private async commitConfig(
    base: Config,
    input: unknown,
    ignored: Record<string, unknown>,
    options: { fromRefresh?: boolean } = {},
  ): Promise<void> {
    const applied = applyConfigInput(base, input, ignored);
    const authChanged = applied.changed.some((key) => key.startsWith('authorization.'));
    const next: StoredConfig = { config: applied.config, ignored: applied.ignored };
    await saveConfig(this.deps.store.kv, next);
    this.current = next;
    this.applyRuntime();
    for (const key of Object.keys(applied.ignored)) {
      if (this.noted.has(key)) continue;
      this.noted.add(key);
      this.log.info('Config', `${key} is an anchor option Waypost keeps but does not act on`);
    }
    if (applied.changed.length > 0) this.log.info('Config', `changed: ${applied.changed.join(', ')}`);
    // New credentials from the integrator end an auth-failed state (DESIGN 4).
    if (authChanged && !options.fromRefresh) this.authorizer.reset();
    if (this.tracking.enabled && applied.changed.includes('app.heartbeatInterval')) this.scheduleHeartbeat();
  }

  private applyRuntime(): void {
    this.log.setLevel(LogLevel[this.current.config.logger.logLevel]);
  }

  getState(): State {
    return {
      ...cloneConfig(this.current.config),
      enabled: this.tracking.enabled,
      isMoving: this.tracking.isMoving,
      trackingMode: this.tracking.trackingMode,
      odometer: this.tracking.odometer,
      authorizationStatus: this.authorizer.status,
      ignored: { ...this.current.ignored },
    };
  }

  // ---------------------------------------------------------------- tracking lifecycle

  /** On the first ready(): resume tracking that should survive a restart or a reboot. */
  private async resumeAfterOpen(): Promise<void> {
    const { app } = this.current.config;
    const rebooted =
      this.deps.bootId !== undefined && this.tracking.bootId !== null && this.tracking.bootId !== this.deps.bootId;
    const resume = this.tracking.enabled && (!app.stopOnTerminate || (rebooted && app.startOnBoot));
    if (this.deps.bootId !== undefined) this.tracking.bootId = this.deps.bootId;
    if (resume) {
      this.log.info(
        'Lifecycle',
        rebooted ? 'resuming tracking after a reboot (startOnBoot)' : 'resuming tracking (stopOnTerminate: false)',
      );
      this.scheduleHeartbeat();
    } else if (this.tracking.enabled) {
      this.tracking.enabled = false;
    }
    await this.persistTracking();
  }

  async start(): Promise<State> {
    return this.enable('location');
  }

  /** Geofences-only mode: only geofence records are queued. */
  async startGeofences(): Promise<State> {
    return this.enable('geofences');
  }

  private async enable(mode: TrackingMode): Promise<State> {
    this.assertReady('start');
    const wasEnabled = this.tracking.enabled;
    this.tracking.enabled = true;
    this.tracking.trackingMode = mode;
    await this.persistTracking();
    this.scheduleHeartbeat();
    this.log.info('Lifecycle', `start (${mode})`);
    if (!wasEnabled) this.events.emit('enabledchange', true);
    void this.trigger('start');
    return this.getState();
  }

  async stop(): Promise<State> {
    this.assertReady('stop');
    const wasEnabled = this.tracking.enabled;
    this.tracking.enabled = false;
    this.tracking.isMoving = false;
    this.motion.force(false, null, this.clock.now());
    this.heartbeat.clear();
    this.stopTimer.clear();
    await this.persistTracking();
    this.log.info('Lifecycle', 'stop');
    if (wasEnabled) this.events.emit('enabledchange', false);
    return this.getState();
  }

  /** Forces the motion state; entering either state flushes the queue whatever the threshold. */
  async changePace(isMoving: boolean): Promise<State> {
    if (typeof isMoving !== 'boolean') {
      throw new WaypostError('INVALID_CONFIG', `changePace: expected true or false, got ${JSON.stringify(isMoving)}.`);
    }
    this.assertStarted('changePace');
    this.motion.force(isMoving, this.lastFix?.coords ?? null, this.clock.now());
    await this.transitionMotion(isMoving, this.lastFix);
    this.scheduleStopTimer();
    void this.trigger('motionchange');
    return this.getState();
  }

  /**
   * A moving/stationary transition: records a `motionchange` record at `fix` (when a position is
   * known) and fires onMotionChange. The caller then uploads everything (spec 3 rule 3).
   */
  private async transitionMotion(isMoving: boolean, fix: Fix | null): Promise<Location | null> {
    if (this.tracking.isMoving === isMoving) return null;
    this.tracking.isMoving = isMoving;
    await this.persistTracking();
    this.log.info('Motion', isMoving ? 'moving' : 'stationary');
    const location = fix
      ? await this.persistLocation(fix, 'motionchange', this.tracking.trackingMode === 'location')
      : null;
    this.events.emit('motionchange', { isMoving, location });
    return location;
  }

  // ---------------------------------------------------------------- recording

  /**
   * A location from the device's provider. Requires start(). Feeds the odometer, motion detection
   * and the geofences, then the queue. The location that shows the device moving is recorded as
   * the `motionchange` record.
   */
  async recordLocation(input: unknown): Promise<Location> {
    this.assertStarted('recordLocation');
    const fix = parseLocationInput(input, this.clock.now());
    this.log.info(
      'Location',
      `Location ${fix.coords.latitude.toFixed(6)},${fix.coords.longitude.toFixed(6)} accuracy ${fix.coords.accuracy}`,
    );
    if (this.tracking.lastCoords) this.tracking.odometer += distanceMeters(this.tracking.lastCoords, fix.coords);
    this.tracking.lastCoords = { latitude: fix.coords.latitude, longitude: fix.coords.longitude };
    this.lastFix = fix;
    const signal = this.motion.observe(fix.coords, this.clock.now(), this.motionSettings());
    let location: Location;
    if (signal === 'moving') {
      location = (await this.transitionMotion(true, fix))!;
    } else {
      location = await this.persistLocation(fix, undefined, this.tracking.trackingMode === 'location');
      if (signal === 'stationary') await this.transitionMotion(false, fix);
    }
    this.events.emit('location', location);
    for (const transition of await this.geofences.evaluate(fix.coords)) await this.recordGeofence(transition, fix);
    this.scheduleStopTimer();
    void this.trigger(signal ? 'motionchange' : 'location');
    return location;
  }

  /** A raw insert that works in any state (imports, tests, a provider with its own logic). */
  async insertLocation(input: unknown): Promise<Location> {
    this.assertOpen();
    const fix = parseLocationInput(input, this.clock.now());
    const location = await this.persistLocation(fix, undefined, true);
    void this.trigger('location');
    return location;
  }

  private motionSettings() {
    const { stationaryRadius, stopTimeout } = this.current.config.geolocation;
    return { stationaryRadius, stopTimeoutMinutes: stopTimeout };
  }

  /** While moving, the stop timer makes the device stationary when no location moves it on. */
  private scheduleStopTimer(): void {
    this.stopTimer.clear();
    const wait = this.motion.msUntilStationary(this.clock.now(), this.motionSettings());
    if (wait === null || !this.tracking.enabled) return;
    this.stopTimer.schedule(wait, () => {
      if (this.closed || !this.tracking.enabled) return;
      if (this.motion.timeout(this.clock.now(), this.motionSettings()) !== 'stationary')
        return this.scheduleStopTimer();
      void this.transitionMotion(false, this.lastFix).then(() => this.trigger('motionchange'));
    });
  }

  // ---------------------------------------------------------------- geofences

  private async recordGeofence(transition: GeofenceTransition, fix: Fix): Promise<Location> {
    const geofence = this.geofences.get(transition.identifier);
    const extras = geofence?.extras ?? {};
    const location = await this.persistLocation(fix, 'geofence', true, {
      geofence: { identifier: transition.identifier, action: transition.action, extras },
    });
    this.log.info('Geofence', `${transition.action} ${transition.identifier}`);
    this.events.emit('geofence', { identifier: transition.identifier, action: transition.action, location, extras });
    return location;
  }

  private async onTimedGeofence(transition: GeofenceTransition): Promise<void> {
    if (this.closed || !this.tracking.enabled || !this.lastFix) return;
    await this.recordGeofence(transition, { ...this.lastFix, time: this.clock.now() });
    await this.trigger('location');
  }

  async addGeofence(geofence: unknown): Promise<Geofence> {
    this.assertOpen();
    const [added] = await this.geofences.add([geofence]);
    this.log.info('Geofence', `added ${added!.identifier}`);
    return added!;
  }

  /** Adds all or none: one invalid geofence rejects the whole list. */
  async addGeofences(geofences: unknown): Promise<Geofence[]> {
    this.assertOpen();
    if (!Array.isArray(geofences))
      throw new WaypostError('INVALID_GEOFENCE', 'addGeofences: expected a list of geofences.');
    const added = await this.geofences.add(geofences);
    this.log.info('Geofence', `added ${added.length} geofences`);
    return added;
  }

  async removeGeofence(identifier: string): Promise<boolean> {
    this.assertOpen();
    return (await this.geofences.remove([identifier])) > 0;
  }

  /** Removes the listed geofences, or all of them when no list is given. */
  async removeGeofences(identifiers?: string[]): Promise<number> {
    this.assertOpen();
    return this.geofences.remove(identifiers);
  }

  async getGeofences(): Promise<Geofence[]> {
    return this.geofences.all();
  }

  // ---------------------------------------------------------------- remote control and log upload

  /** POSTs the SDK log, gzipped, as multipart form data with the device's description. */
  private async uploadLog(url: string): Promise<{ status: number }> {
    this.assertOpen();
    const { http } = this.current.config;
    const headers = mergeHeaders(http.headers, await this.authorizer.headers());
    delete headers[Object.keys(JSON_CONTENT_TYPE)[0]!];
    const response = await uploadLogFile(this.deps.transport, {
      url,
      logText: await this.log.text(),
      fields: {
        device_id: this.device.uuid,
        model: this.device.model,
        manufacturer: this.device.manufacturer,
        platform: this.device.platform,
        version: this.device.version,
        sdk_version: SDK_VERSION,
      },
      headers,
      timeoutMs: http.timeout,
    });
    this.log.info('Log', `log uploaded to ${new URL(url).host} (${response.status})`);
    return { status: response.status };
  }

  /** Builds the record and, when `persist`, renders and inserts it (the record cap applies). */
  private async persistLocation(
    fix: Fix,
    event: Location['event'],
    persist: boolean,
    extra?: Partial<Location>,
  ): Promise<Location> {
    const location = buildLocation(fix, this.tracking, event, extra);
    if (persist) await this.writer.write(location);
    return location;
  }

  // ---------------------------------------------------------------- queue

  async getCount(): Promise<number> {
    return this.deps.store.locations.count();
  }

  /** Records as stored (parsed JSON), paged in the store: never the whole queue unless asked. */
  async getLocations(query: LocationQuery = {}): Promise<unknown[]> {
    const rows = await this.deps.store.locations.list({
      ...query,
      order: query.order ?? this.current.config.persistence.locationsOrderDirection,
    });
    return rows.map((row) => JSON.parse(row.json) as unknown);
  }

  async destroyLocations(): Promise<number> {
    const removed = await this.deps.store.locations.removeAll();
    this.log.info('Queue', `destroyLocations: ${removed} removed`);
    return removed;
  }

  async destroyLocation(uuid: string): Promise<boolean> {
    const removed = await this.deps.store.locations.removeByUuid(uuid);
    if (removed) this.log.info('Queue', `DESTROY ${uuid} (destroyLocation)`);
    return removed;
  }

  /**
   * Uploads the queue now, whatever autoSync, the threshold or the Wi-Fi policy say. Waits for a
   * running upload and then drains what remains. Resolves with the records it delivered.
   */
  async sync(): Promise<Location[]> {
    this.assertOpen();
    const result = await this.uploader.drain(true);
    return result.records.map((r: StoredRecord) => JSON.parse(r.json) as Location);
  }

  /** An automatic trigger (spec 7.3): uploads when the policy allows and nothing is running. */
  private async trigger(trigger: Exclude<SyncTrigger, 'manual'>): Promise<void> {
    if (!this.isReady || this.closed || this.uploader.busy) return;
    const { http } = this.current.config;
    if (!http.url || !http.autoSync) return;
    const decision = decideAutoUpload(trigger, {
      http,
      network: this.deps.network.current(),
      // Counting is only needed for a threshold; without one, an upload of an empty queue is a
      // single indexed read, cheaper than counting a long backlog on every location.
      queued: http.autoSyncThreshold > 0 ? await this.deps.store.locations.count() : 1,
    });
    // close() may have begun while the queue was being counted.
    if (this.closed) return;
    if (!decision.upload) {
      if (decision.reason !== 'queue empty') this.log.debug('HTTP', `no upload on ${trigger}: ${decision.reason}`);
      return;
    }
    try {
      await this.uploader.drain(false);
    } catch (error) {
      this.log.error('HTTP', `automatic upload failed: ${(error as Error).message}`);
    }
  }

  private async applyRetention(): Promise<void> {
    const { persistence } = this.current.config;
    const removed = await this.deps.store.locations.prune({
      olderThan: this.clock.now() - persistence.maxDaysToPersist * DAY_MS,
      ...(persistence.maxRecordsToPersist >= 0 ? { maxRecords: persistence.maxRecordsToPersist } : {}),
    });
    if (removed > 0)
      this.log.warn('Queue', `retention removed ${removed} records (maxDaysToPersist/maxRecordsToPersist)`);
  }

  // ---------------------------------------------------------------- retry triggers

  private onNetworkChange(type: NetworkType): void {
    const connected = type !== 'none';
    this.log.info('Network', `connectivity: ${type}`);
    this.events.emit('connectivitychange', { connected, type });
    if (connected) void this.trigger('connectivity');
  }

  private scheduleHeartbeat(): void {
    this.heartbeat.schedule(this.current.config.app.heartbeatInterval * 1000, () => {
      if (!this.tracking.enabled || this.closed) return;
      this.scheduleHeartbeat();
      void this.heartbeatTick();
    });
  }

  private async heartbeatTick(): Promise<void> {
    this.log.debug('Heartbeat', 'heartbeat');
    this.events.emit('heartbeat', { timestamp: new Date(this.clock.now()).toISOString() });
    await this.persistTracking();
    await this.log.prune(this.current.config.logger.logMaxDays);
    await this.trigger('heartbeat');
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

  // ---------------------------------------------------------------- shutdown

  /** Waits for a running upload, writes the log and state, and closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.heartbeat.clear();
    this.stopTimer.clear();
    this.geofences.close();
    this.unsubscribeNetwork();
    this.deps.dispose?.();
    await this.uploader.idle();
    await this.persistTracking();
    await this.log.flush();
    this.events.clear();
    await this.deps.store.close();
  }

  private persistTracking(): Promise<void> {
    return saveTrackingState(this.deps.store.kv, this.tracking);
  }

  private assertOpen(): void {
    if (this.closed)
      throw new WaypostError('CLOSED', 'This instance is closed; create a new one with createBackgroundGeolocation().');
  }

  private assertReady(operation: string): void {
    this.assertOpen();
    if (!this.isReady) throw new WaypostError('NOT_READY', `${operation}: call ready(config) first.`);
  }

  private assertStarted(operation: string): void {
    this.assertReady(operation);
    if (!this.tracking.enabled)
      throw new WaypostError('NOT_STARTED', `${operation}: tracking is stopped; call start() first.`);
  }
}
