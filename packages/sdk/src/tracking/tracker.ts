import { OneShotTimer } from '../clock/one-shot-timer.js';
import type { Config } from '../config/types.js';
import { WaypostError } from '../errors.js';
import type { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import { MotionDetector } from '../motion/motion-detector.js';
import type { Clock } from '../ports/clock.js';
import type { KeyValueStore, LocationQueueStore } from '../ports/store.js';
import type { AutoTrigger } from '../queue/upload-policy.js';
import { parseLocationInput, type Fix, type Location } from '../records/location.js';
import { buildLocation, RecordWriter } from '../records/record-writer.js';
import { distanceMeters } from './odometer.js';
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
  /** Records the cap removed (or did not keep) as a record was written. */
  onCapDrop: (count: number) => void;
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
    const fix = parseLocationInput(input, clock.now());
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
      location = (await this.transitionMotion(true, fix))!;
    } else {
      location = await this.persistLocation(fix, undefined, this.state.trackingMode === 'location');
      if (signal === 'stationary') await this.transitionMotion(false, fix);
    }
    this.deps.events.emit('location', location);
    await this.evaluateGeofences(fix);
    this.scheduleStopTimer();
    this.deps.trigger(signal ? 'motionchange' : 'location');
    return location;
  }

  /** A raw insert that works in any state (imports, tests, a provider with its own logic). */
  async insertLocation(input: unknown): Promise<Location> {
    const fix = parseLocationInput(input, this.deps.clock.now());
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
   * known) and fires onMotionChange. The caller then uploads everything (spec 3 rule 3).
   */
  private async transitionMotion(isMoving: boolean, fix: Fix | null): Promise<Location | null> {
    if (this.state.isMoving === isMoving) return null;
    this.state.isMoving = isMoving;
    await this.persist();
    this.deps.logger.info('Motion', isMoving ? 'moving' : 'stationary');
    const location = fix
      ? await this.persistLocation(fix, 'motionchange', this.state.trackingMode === 'location')
      : null;
    this.deps.events.emit('motionchange', { isMoving, location });
    return location;
  }

  private motionSettings() {
    const { stationaryRadius, stopTimeout } = this.deps.config().geolocation;
    return { stationaryRadius, stopTimeoutMinutes: stopTimeout };
  }

  /** While moving, the stop timer makes the device stationary when no location moves it on. */
  private scheduleStopTimer(): void {
    this.stopTimer.clear();
    const wait = this.motion.msUntilStationary(this.deps.clock.now(), this.motionSettings());
    if (wait === null || !this.state.enabled) return;
    this.stopTimer.schedule(wait, () => {
      if (this.closed || !this.state.enabled) return;
      if (this.motion.timeout(this.deps.clock.now(), this.motionSettings()) !== 'stationary')
        return this.scheduleStopTimer();
      void this.transitionMotion(false, this.lastFix).then(() => this.deps.trigger('motionchange'));
    });
  }
}
