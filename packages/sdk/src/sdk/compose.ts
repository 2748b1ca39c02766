import { PositionRequests } from '../tracking/position-requests.js';
import { Tombstones } from '../ledger/tombstones.js';
import { DeviceHealth, HEALTH_OFFERS_KEY } from '../health/device-health.js';
import { ServerOffers } from '../http/server-offers.js';
import { ReceiptKeeper } from '../receipts/receipt-keeper.js';
import { ReRegistration } from '../auth/reregistration.js';
import { TokenAuthorizer } from '../auth/token-authorizer.js';
import { systemClock } from '../clock/system-clock.js';
import type { StoredConfig } from '../config/persisted-config.js';
import { deviceInfo, type DeviceInfo } from '../device.js';
import { WaypostError } from '../errors.js';
import { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import { LogUploader } from '../log/log-uploader.js';
import { SdkLogger } from '../log/logger.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Clock } from '../ports/clock.js';
import type { LocationProvider } from '../ports/location-provider.js';
import type { NetworkMonitor } from '../ports/network.js';
import type { Store } from '../ports/store.js';
import type { Transport } from '../ports/transport.js';
import { OPEN_GATE, type UploadGate } from '../ports/upload-gate.js';
import type { AppStateMonitor } from '../ports/app-state.js';
import type { BatteryReader } from '../records/location.js';
import { QueueRecords } from '../queue/queue-records.js';
import { Retention } from '../queue/retention.js';
import { RemoteController } from '../remote/remote-controller.js';
import { commandHandlers, type CommandTarget } from '../remote/sdk-command-handlers.js';
import { ConfigSession } from '../session/config-session.js';
import { SyncScheduler } from '../sync/sync-scheduler.js';
import { Geofencing } from '../tracking/geofences.js';
import type { TrackingState } from '../tracking/persisted-state.js';
import { ProviderRunner } from '../tracking/provider-runner.js';
import { Tracker } from '../tracking/tracker.js';

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
  /** The host's battery (level 0..1, charging) for fixes that carry none; default unknown (-1). */
  battery?: BatteryReader;
  /** Serves getCurrentPosition() and watchPosition(); without one they reject NO_LOCATION_PROVIDER. */
  locationProvider?: LocationProvider;
  /** Records a fix while tracking is enabled (a GPS daemon, the Geolocation API); none by default. */
  trackingProvider?: LocationProvider;
  /** Sends the log by mail (logger.emailLog); without one emailLog rejects NOT_SUPPORTED. */
  mail?: (message: { to: string; subject: string; text: string }) => Promise<void>;
  /** Upload leadership over a queue shared by several instances; default OPEN_GATE (this one leads). */
  uploadGate?: UploadGate;
  /** The app's foreground state (a page's visibility); coming back to it triggers an upload. */
  appState?: AppStateMonitor;
}

/** The parts of one SDK instance, each the single owner of its concern. */
export interface EngineParts {
  clock: Clock;
  device: DeviceInfo;
  log: SdkLogger;
  events: Emitter<SdkEvents>;
  session: ConfigSession;
  authorizer: TokenAuthorizer;
  tracker: Tracker;
  geofencing: Geofencing;
  records: QueueRecords;
  retention: Retention;
  scheduler: SyncScheduler;
  logUploader: LogUploader;
  lifecycle: Lifecycle;
  positions: PositionRequests;
  reregistration: ReRegistration;
  health: DeviceHealth;
  receipts: ReceiptKeeper;
}

/**
 * Wires one SDK instance: the only place that knows how the parts reach each other. `facadeOf`
 * builds the public API over the parts; remote commands act through it (spec 4.2: each command is
 * "same as" the operation), so a command meets the same preconditions as the application's call.
 */
export function composeSdk<F extends CommandTarget>(
  deps: BackgroundGeolocationDeps,
  stored: StoredConfig,
  tracking: TrackingState,
  facadeOf: (engine: EngineParts) => F,
): { engine: EngineParts; facade: F } {
  const clock = deps.clock ?? systemClock;
  const device = deviceInfo(deps.device);
  const { store } = deps;
  const defer = deps.defer ?? ((fn: () => void) => void setTimeout(fn, 0));
  const log = new SdkLogger(store.log, clock, defer);
  const events = new Emitter<SdkEvents>((event, error) =>
    log.error('Events', `a ${event} listener threw: ${(error as Error)?.message ?? String(error)}`),
  );
  const session = new ConfigSession(stored, { kv: store.kv, logger: log });
  const config = () => session.config;
  const authorizer = new TokenAuthorizer({
    config,
    saveTokens: (patch) => session.saveTokens(patch),
    transport: deps.transport,
    clock,
    logger: log,
    emit: (event) => events.emit('authorization', event),
    ...(deps.random ? { random: deps.random } : {}),
  });
  // New credentials from the integrator end an auth-failed state (DESIGN 4).
  session.onChange(({ changed, fromRefresh }) => {
    if (!fromRefresh && changed.some((key) => key.startsWith('authorization.'))) authorizer.reset();
  });
  const tombstones = new Tombstones(store.kv);
  const retention = new Retention({
    queue: store.locations,
    clock,
    logger: log,
    config,
    onDrop: (reason, count) => events.emit('drop', { reason, count }),
    tombstones,
  });
  const health: DeviceHealth = new DeviceHealth({
    clock,
    config,
    queue: store.locations,
    network: deps.network,
    events,
    tracking,
    retryAfter: (): number | null => scheduler.retryAfter,
    offers: new ServerOffers(store.kv, HEALTH_OFFERS_KEY),
    ...(deps.battery ? { battery: deps.battery } : {}),
  });
  const receipts = new ReceiptKeeper(store.kv, store.archive, log, clock, config);
  const scheduler: SyncScheduler = new SyncScheduler({
    queue: store.locations,
    transport: deps.transport,
    network: deps.network,
    clock,
    logger: log,
    events,
    authorizer,
    config,
    onResponse: (response) => remote.handleResponse(response.text),
    beforeFlush: () => retention.apply(),
    gate: deps.uploadGate ?? OPEN_GATE,
    appState: deps.appState,
    kv: store.kv,
    tombstones,
    health,
    receipts,
  });
  const trigger = (t: Parameters<SyncScheduler['trigger']>[0]) => void scheduler.trigger(t);
  const tracker = new Tracker(tracking, {
    queue: store.locations,
    kv: store.kv,
    clock,
    logger: log,
    events,
    config,
    trigger,
    ...(deps.battery ? { battery: deps.battery } : {}),
    onCapDrop: (removed) => retention.report('cap', removed),
  });
  const geofencing = new Geofencing({
    store: store.geofences,
    kv: store.kv,
    clock,
    logger: log,
    events,
    tracker,
    trigger,
    initialTriggerEntry: () => session.config.geolocation.geofenceInitialTriggerEntry,
  });
  tracker.evaluateGeofences = (fix) => geofencing.evaluate(fix);
  const records = new QueueRecords({
    queue: store.locations,
    logger: log,
    config,
    beforeRead: () => retention.apply(),
    onDestroyed: (removed) => retention.report('destroyed', removed),
  });
  const logUploader = new LogUploader({ transport: deps.transport, logger: log, authorizer, clock, config, device });
  session.onChange(({ changed }) => {
    if (changed.includes('http.retryInterval')) scheduler.retryIntervalChanged();
    if (changed.includes('http.presenceInterval')) scheduler.presenceIntervalChanged();
  });
  const lifecycle = new Lifecycle({
    store,
    clock,
    logger: log,
    events,
    session,
    tracker,
    geofencing,
    scheduler,
    retention,
    logUploader,
    bootId: deps.bootId,
    gate: deps.uploadGate ?? OPEN_GATE,
    provider: deps.trackingProvider
      ? new ProviderRunner({
          provider: deps.trackingProvider,
          record: (fix) => tracker.recordLocation(fix),
          logger: log,
          onStatus: (status) => health.providerStatus(status),
        })
      : null,
    dispose: deps.dispose,
  });
  const positions = new PositionRequests({
    provider: deps.locationProvider,
    clock,
    emitProviderChange: (event) => events.emit('providerchange', event),
  });
  const reregistration = new ReRegistration({
    transport: deps.transport,
    kv: store.kv,
    device,
    logger: log,
    uploadUrl: () => session.config.http.url,
    apply: (token) => session.set({ transistorAuthorizationToken: token }),
    retry: () => scheduler.sync(),
  });
  events.on('http', (event) => reregistration.onHttp(event));
  const engine: EngineParts = {
    positions,
    reregistration,
    health,
    receipts,
    clock,
    device,
    log,
    events,
    session,
    authorizer,
    tracker,
    geofencing,
    records,
    retention,
    scheduler,
    logUploader,
    lifecycle,
  };
  const facade = facadeOf(engine);
  // Read by the scheduler's onResponse, which no response reaches before composition ends.
  const remote = new RemoteController({
    handlers: commandHandlers(
      facade,
      {
        upload: async (url) => requestLogUpload(logUploader, url),
        destroy: () => log.destroy(),
      },
      receipts,
    ),
    allowed: () => session.config.http.remoteCommands,
    logger: log,
    emit: (event) => events.emit('remotecommand', event),
  });
  return { engine, facade };
}

/** A server's uploadLog: queued or coalesced at once, never awaited by the upload that carried it. */
function requestLogUpload(logUploader: LogUploader, url: string): string {
  const result = logUploader.request(url);
  if (result === 'refused') throw new WaypostError('NETWORK', 'uploadLog: too many log uploads are already queued.');
  return result;
}
