import { OneShotTimer } from '../clock/one-shot-timer.js';
import type { Config } from '../config/types.js';
import { WaypostError } from '../errors.js';
import type { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import { MotionDetector } from '../motion/motion-detector.js';
import type { Clock } from '../ports/clock.js';
import type { KeyValueStore, LocationQueueStore, RemovedRecords } from '../ports/store.js';
import type { AutoTrigger } from '../queue/upload-policy.js';
import { parseLocationInput, type BatteryReader, type Fix, type Location } from '../records/location.js';
import { buildLocation, RecordWriter } from '../records/record-writer.js';
import { distanceMeters } from '../geometry/distance.js';
import { saveTrackingState, type TrackingMode, type TrackingState } from './persisted-state.js';

export interface TrackerDeps {
  queue: LocationQueueStore;
  kv: KeyValueStore;
  clock: Clock;
  logger: SdkLogger;
  events: Emitter<SdkEvents>;
  config: () => Config;
  /** Tells the sync scheduler that something happened that may warrant an upload. */
  trigger: (trigger: AutoTrigger) => void;
  /** The host's battery for fixes that carry none; absent: unknown (-1). */
  battery?: BatteryReader;
  /** Records the cap removed (or did not keep) as a record was written. */
  onCapDrop: (removed: RemovedRecords) => void;
}

/**
 * Tracking: owns the tracking state (enabled, mode, motion, odometer), motion detection with its
 * stop timer, and the records locations become. Geofence transitions are recorded through it.
 */
export class Tracker {
  private readonly motion: MotionDetector;
  private readonly stopTimer: OneShotTimer;
  private readonly writer: RecordWriter;
  private lastFix: Fix | null = null;
  private closed = false;
  /** Geofence evaluation of each location; set by the composition once the geofence part exists. */
  evaluateGeofences: (fix: Fix) => Promise<void> = async () => undefined;

  constructor(
    readonly state: TrackingState,
    private readonly deps: TrackerDeps,
  ) {
    this.motion = new MotionDetector(state.isMoving);
    this.stopTimer = new OneShotTimer(deps.clock);
    this.writer = new RecordWriter({
      queue: deps.queue,
      logger: deps.logger,
      clock: deps.clock,
      persistence: () => deps.config().persistence,
      onCapDrop: deps.onCapDrop,
    });
  }

  get enabled(): boolean {
    return this.state.enabled;
  }

  /** The latest fix recorded, for records made between locations (a timed DWELL). */
  get latestFix(): Fix | null {
    return this.lastFix;
  }

  /**
   * The last known position as a location (not stored): the latest fix, else the coordinates kept
   * across restarts, stamped now. Null when the SDK has never seen a position.
   */
  knownLocation(event?: Location['event']): Location | null {
    const now = this.deps.clock.now();
    if (this.lastFix) return buildLocation({ ...this.lastFix, time: now, uuid: undefined }, this.state, event);
    const last = this.state.lastCoords;
    if (!last) return null;
    const unknown = { accuracy: -1, speed: -1, heading: -1, altitude: -1, altitude_accuracy: -1 };
    return buildLocation(
      {
        coords: { latitude: last.latitude, longitude: last.longitude, ...unknown },
        time: now,
        activity: { type: 'unknown', confidence: -1 },
        battery: this.deps.battery?.() ?? { level: -1, is_charging: false },
        extras: {},
        mock: undefined,
      },
      this.state,
      event,
    );
  }

  /** The anchor's setOdometer/resetOdometer: metres, persisted. */
  async setOdometer(meters: unknown): Promise<void> {
    if (typeof meters !== 'number' || !Number.isFinite(meters) || meters < 0) {
      throw new WaypostError(
        'INVALID_CONFIG',
        `setOdometer: ${JSON.stringify(meters) ?? String(meters)} is not allowed; expected metres >= 0.`,
        'odometer',
      );
    }
    this.state.odometer = meters;
    await this.persist();
    this.deps.logger.info('Odometer', `set to ${meters} m`);
  }

  /** Enables tracking in `mode`; returns whether it was already enabled. */
  async enable(mode: TrackingMode): Promise<boolean> {
    const wasEnabled = this.state.enabled;
    this.state.enabled = true;
    this.state.trackingMode = mode;
    await this.persist();
    return wasEnabled;
  }

  /** Disables tracking and forgets motion; returns whether it was enabled. */
  async disable(): Promise<boolean> {
    const wasEnabled = this.state.enabled;
    this.state.enabled = false;
    this.state.isMoving = false;
    this.motion.force(false, null, this.deps.clock.now());
    this.stopTimer.clear();
    await this.persist();
    return wasEnabled;
  }

  persist(): Promise<void> {
    return saveTrackingState(this.deps.kv, this.state);
  }

  /**
   * A location from the device's provider. Feeds the odometer, motion detection and the
   * geofences, then the queue. The location that shows the device moving is recorded as the
   * `motionchange` record.
   */
  async recordLocation(input: unknown): Promise<Location> {
    const { clock, logger } = this.deps;
    const fix = parseLocationInput(input, clock.now(), this.deps.battery);
    logger.info(
      'Location',
      `Location ${fix.coords.latitude.toFixed(6)},${fix.coords.longitude.toFixed(6)} accuracy ${fix.coords.accuracy}`,
    );
    if (this.state.lastCoords) this.state.odometer += distanceMeters(this.state.lastCoords, fix.coords);
    this.state.lastCoords = { latitude: fix.coords.latitude, longitude: fix.coords.longitude };
    this.lastFix = fix;
    const signal = this.motion.observe(fix.coords, clock.now(), this.motionSettings());
    let location: Location;
    if (signal === 'moving') {
      location = (await this.transitionMotion(true, fix, true))!;
    } else {
      location = await this.persistLocation(fix, undefined, this.persists('location'));
      if (signal === 'stationary') await this.transitionMotion(false, fix);
    }
    this.deps.events.emit('location', location);
    await this.evaluateGeofences(fix);
    this.scheduleStopTimer();
    this.deps.trigger(signal ? 'motionchange' : 'location');
    return location;
  }

  /** A location of the default schema from an input, not stored (a position request with persist: false). */
  locationFrom(input: unknown): Location {
    return buildLocation(parseLocationInput(input, this.deps.clock.now(), this.deps.battery), this.state);
  }

  /** A raw insert that works in any state (imports, tests, a provider with its own logic). */
  async insertLocation(input: unknown): Promise<Location> {
    const fix = parseLocationInput(input, this.deps.clock.now(), this.deps.battery);
    const location = await this.persistLocation(fix, undefined, true);
    this.deps.trigger('location');
    return location;
  }

  /** Forces the motion state; entering either state flushes the queue whatever the threshold. */
  async changePace(isMoving: unknown): Promise<void> {
    if (typeof isMoving !== 'boolean') {
      throw new WaypostError('INVALID_CONFIG', `changePace: expected true or false, got ${JSON.stringify(isMoving)}.`);
    }
    this.motion.force(isMoving, this.lastFix?.coords ?? null, this.deps.clock.now());
    await this.transitionMotion(isMoving, this.lastFix);
    this.scheduleStopTimer();
    this.deps.trigger('motionchange');
  }

  /**
   * Whether tracking stores a record of this kind: locations only in location mode, and what
   * persistence.persistMode (the anchor's PersistMode) allows.
   */
  persists(kind: 'location' | 'geofence'): boolean {
    const mode = this.deps.config().persistence.persistMode;
    if (kind === 'geofence') return mode === 2 || mode === -1;
    return this.state.trackingMode === 'location' && (mode === 2 || mode === 1);
  }

  /** Builds the record and, when `persist`, renders and inserts it (the record cap applies). */
  async persistLocation(
    fix: Fix,
    event: Location['event'],
    persist: boolean,
    extra?: Partial<Location>,
  ): Promise<Location> {
    const location = buildLocation(fix, this.state, event, extra);
    if (persist) await this.writer.write(location);
    return location;
  }

  close(): void {
    this.closed = true;
    this.stopTimer.clear();
  }

  /**
   * A moving/stationary transition: records a `motionchange` record at `fix` (when a position is
   * known; as the fix's own record when `fixOwnRecord`) and fires onMotionChange. The caller then uploads everything (spec 3 rule 3).
   */
  private async transitionMotion(isMoving: boolean, fix: Fix | null, fixOwnRecord = false): Promise<Location | null> {
    if (this.state.isMoving === isMoving) return null;
    this.state.isMoving = isMoving;
    await this.persist();
    this.deps.logger.info('Motion', isMoving ? 'moving' : 'stationary');
    // The fix's own uuid (a replayed file's fix identity) names one record only: the motionchange
    // record of a fix already recorded (stationary, changePace, the stop timer) gets a uuid of its own.
    const at = fix && !fixOwnRecord ? { ...fix, uuid: undefined } : fix;
    const location = at ? await this.persistLocation(at, 'motionchange', this.persists('location')) : null;
    this.deps.events.emit('motionchange', { isMoving, location });
    return location;
  }

  private motionSettings() {
    const { stationaryRadius, stopTimeout } = this.deps.config().geolocation;
    return { stationaryRadius, stopTimeoutMinutes: stopTimeout };
  }

  /**
   * While moving, the stop timer makes the device stationary when no location moves it on. Every
   * location moves the deadline later: the timer already set stays, and when it fires early it
   * checks and sets itself for the rest (clearing and setting one per location was about 3% of
   * the browser's enqueue).
   */
  private scheduleStopTimer(): void {
    const wait = this.motion.msUntilStationary(this.deps.clock.now(), this.motionSettings());
    if (wait === null || !this.state.enabled) return this.stopTimer.clear();
    this.stopTimer.scheduleBy(wait, () => {
      if (this.closed || !this.state.enabled) return;
      if (this.motion.timeout(this.deps.clock.now(), this.motionSettings()) !== 'stationary')
        return this.scheduleStopTimer();
      void this.transitionMotion(false, this.lastFix).then(() => this.deps.trigger('motionchange'));
    });
  }
}
