import { OneShotTimer } from '../clock/one-shot-timer.js';
import type { ConfigInput } from '../config/input-types.js';
import { WaypostError } from '../errors.js';
import type { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { UploadGate } from '../ports/upload-gate.js';
import type { Store } from '../ports/store.js';
import type { Retention } from '../queue/retention.js';
import type { LogUploader } from '../log/log-uploader.js';
import type { ConfigEditor, ConfigSession } from '../session/config-session.js';
import type { SyncScheduler } from '../sync/sync-scheduler.js';
import type { Geofencing } from '../tracking/geofences.js';
import type { TrackingMode } from '../tracking/persisted-state.js';
import type { ProviderRunner } from '../tracking/provider-runner.js';
import type { Tracker } from '../tracking/tracker.js';

export interface LifecycleDeps {
  store: Store;
  clock: Clock;
  logger: SdkLogger;
  events: Emitter<SdkEvents>;
  session: ConfigSession;
  tracker: Tracker;
  geofencing: Geofencing;
  scheduler: SyncScheduler;
  retention: Retention;
  logUploader: LogUploader;
  bootId: string | undefined;
  /** Only the instance leading the uploads releases record locks: another's may be in flight. */
  gate: UploadGate;
  /** Runs the tracking provider while tracking is enabled; null without one. */
  provider: ProviderRunner | null;
  /** Releases what the host adapter opened for this instance (a network watcher). */
  dispose: (() => void) | undefined;
}

/**
 * The lifecycle: open, ready, start/stop with the heartbeat, and close. Owns whether the instance
 * is ready and whether it is closed, and guards the public API with them.
 */
export class Lifecycle {
  private readonly heartbeat: OneShotTimer;
  private isReady = false;
  private closed = false;

  constructor(private readonly deps: LifecycleDeps) {
    this.heartbeat = new OneShotTimer(deps.clock);
    deps.session.onChange(({ changed }) => {
      if (this.deps.tracker.enabled && changed.includes('app.heartbeatInterval')) this.scheduleHeartbeat();
    });
  }

  /** Right after open: releases the locks a crash left behind and applies retention. */
  async initialize(configProblem: string | null): Promise<void> {
    const { logger, store } = this.deps;
    if (configProblem) logger.warn('Config', `saved configuration ignored, defaults used: ${configProblem}`);
    const released = this.deps.gate.open ? await store.locations.unlockAll() : 0;
    if (released > 0) logger.warn('Queue', `released ${released} locks left by an interrupted upload`);
    await this.deps.scheduler.restore();
    await this.deps.retention.apply();
    this.deps.retention.start();
    await logger.prune(this.deps.session.config.logger.logMaxDays);
    await this.deps.geofencing.load();
  }

  async ready(config: ConfigInput | ConfigEditor): Promise<void> {
    this.assertOpen();
    await this.deps.session.ready(config);
    const firstReady = !this.isReady;
    this.isReady = true;
    if (firstReady) {
      await this.resumeAfterOpen();
      this.deps.scheduler.activate();
    }
    this.deps.logger.info('Lifecycle', `ready (enabled: ${this.deps.tracker.enabled})`);
    // ready() may have resumed tracking (stopOnTerminate false, startOnBoot) without a start().
    await this.deps.provider?.follow(this.deps.tracker.enabled);
    void this.deps.scheduler.trigger('ready');
  }

  async start(mode: TrackingMode, operation: string): Promise<void> {
    this.assertReady(operation);
    const wasEnabled = await this.deps.tracker.enable(mode);
    this.scheduleHeartbeat();
    this.deps.logger.info('Lifecycle', `start (${mode})`);
    if (!wasEnabled) this.deps.events.emit('enabledchange', true);
    await this.deps.provider?.follow(true);
    void this.deps.scheduler.trigger('start');
  }

  async stop(): Promise<void> {
    this.assertReady('stop');
    await this.deps.provider?.follow(false);
    const wasEnabled = await this.deps.tracker.disable();
    this.heartbeat.clear();
    this.deps.logger.info('Lifecycle', 'stop');
    if (wasEnabled) this.deps.events.emit('enabledchange', false);
  }

  /** Resolves when no automatic upload (locations or a server-requested log) is running or pending. */
  async idle(): Promise<void> {
    await this.deps.scheduler.idle();
    await this.deps.logUploader.idle();
  }

  /** Waits for a running upload, writes the log and state, and closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Nothing is recorded once closing began: the provider stops first.
    await this.deps.provider?.stop();
    this.heartbeat.clear();
    this.deps.tracker.close();
    this.deps.geofencing.close();
    this.deps.retention.close();
    const closing = this.deps.scheduler.close();
    this.deps.dispose?.();
    await closing;
    await this.deps.logUploader.idle();
    // An instance that never called ready() (an app reading the queue or changing the
    // configuration beside a running agent) does not own the tracking state: it must not write
    // back the snapshot it loaded over the agent's odometer and motion state.
    if (this.isReady) await this.deps.tracker.persist();
    await this.deps.logger.flush();
    this.deps.events.clear();
    await this.deps.store.close();
  }

  assertOpen(): void {
    if (this.closed)
      throw new WaypostError('CLOSED', 'This instance is closed; create a new one with createBackgroundGeolocation().');
  }

  assertReady(operation: string): void {
    this.assertOpen();
    if (!this.isReady) throw new WaypostError('NOT_READY', `${operation}: call ready(config) first.`);
  }

  assertStarted(operation: string): void {
    this.assertReady(operation);
    if (!this.deps.tracker.enabled)
      throw new WaypostError('NOT_STARTED', `${operation}: tracking is stopped; call start() first.`);
  }

  /** On the first ready(): resume tracking that should survive a restart or a reboot. */
  private async resumeAfterOpen(): Promise<void> {
    const { app } = this.deps.session.config;
    const { state } = this.deps.tracker;
    const { bootId } = this.deps;
    const rebooted = bootId !== undefined && state.bootId !== null && state.bootId !== bootId;
    const resume = state.enabled && (!app.stopOnTerminate || (rebooted && app.startOnBoot));
    if (bootId !== undefined) state.bootId = bootId;
    if (resume) {
      this.deps.logger.info(
        'Lifecycle',
        rebooted ? 'resuming tracking after a reboot (startOnBoot)' : 'resuming tracking (stopOnTerminate: false)',
      );
      this.scheduleHeartbeat();
    } else if (state.enabled) {
      state.enabled = false;
    }
    await this.deps.tracker.persist();
  }

  private scheduleHeartbeat(): void {
    this.heartbeat.schedule(this.deps.session.config.app.heartbeatInterval * 1000, () => {
      if (!this.deps.tracker.enabled || this.closed) return;
      this.scheduleHeartbeat();
      void this.heartbeatTick();
    });
  }

  private async heartbeatTick(): Promise<void> {
    const { logger, events, clock } = this.deps;
    logger.debug('Heartbeat', 'heartbeat');
    events.emit('heartbeat', { timestamp: new Date(clock.now()).toISOString() });
    await this.deps.tracker.persist();
    await logger.prune(this.deps.session.config.logger.logMaxDays);
    await this.deps.retention.apply();
    await this.deps.scheduler.trigger('heartbeat');
  }
}
