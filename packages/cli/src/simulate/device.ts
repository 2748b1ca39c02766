import {
  createBackgroundGeolocation,
  createFetchTransport,
  ManualNetwork,
  openSqliteStore,
  type BackgroundGeolocation,
  type Clock,
  type RemoteCommandEvent,
} from '@waypost/node';
import { recordingStore, type QueueLedger } from './recording-store.js';
import type { Random } from './random.js';
import { StreetTrack, type Origin } from './street-grid.js';
import { describeUploadFailure } from '../upload-failure.js';
import { FaultProvider, OffsetClock, RECORDS_NOTHING_AFTER, type Fault } from './faults.js';
import type { ServicePace } from './pacing.js';

/** The battery level at which a phone shuts itself down. */
export const SHUTDOWN_BATTERY = 0.02;

/** Upload settings of the simulated app (http.batchSync, maxBatchSize, autoSyncThreshold). */
export interface UploadSettings {
  batchSync: boolean;
  maxBatchSize: number;
  autoSyncThreshold: number;
}

export interface DeviceOptions {
  id: string;
  url: string;
  databaseFile: string;
  clock: Clock;
  random: Random;
  origin: Origin;
  upload: UploadSettings;
  /** http.presenceInterval (seconds); default the SDK's. */
  presenceInterval?: number;
  /** The fault this device will be given (issue 31): a Wi-Fi-only device is configured so from the start. */
  fault?: Fault;
  /** The fleet's pace on the service's terms (Retry-After in real time). */
  pace: ServicePace;
  /** http.timeout (ms); default the SDK's. */
  httpTimeoutMs?: number;
  /** The battery level it starts with (0..1); default drawn from its random source. */
  battery?: number;
  /** The SDK's authorization configuration (device tokens), when it uploads with one. */
  authorization?: Record<string, unknown>;
}

/** Upload requests seen through onHttp, split into the phases a run names (before/after a command). */
export interface RequestCounts {
  ok: number;
  failed: number;
  /** Records acknowledged by the successful requests. */
  records: number;
}

/**
 * One simulated device: a real SDK instance on its own SQLite queue and a ManualNetwork on Wi-Fi,
 * fed by a street track. Everything it learns comes from the SDK's public events and its store.
 */
export class SimulatedDevice {
  readonly remoteCommands: RemoteCommandEvent[] = [];
  /** Sum of the "duplicates" the service reported in its replies. */
  duplicatesReported = 0;
  recordErrors = 0;
  lastError: string | null = null;
  /** The last failed upload, as a person reads it (status and the server's reason, or why no answer came). */
  lastUploadFailure: string | null = null;
  phase = 'run';
  /** The final drain stopped waiting for an upload the service never answered. */
  unanswered = false;
  readonly requests = new Map<string, RequestCounts>();
  private acknowledgedSeen = 0;
  private battery = 1;
  private dying = false;
  /** The fault injected into this device, once it is (issue 31). */
  fault: Fault | null = null;
  /** What the faults on the device act through: its location source, its clock. */
  faults!: { provider: FaultProvider; clock: OffsetClock };
  /** Extras the application attaches to every fix from now on (an app's bug may nest them too deep). */
  extras: Record<string, unknown> | null = null;

  private constructor(
    readonly id: string,
    readonly bg: BackgroundGeolocation,
    /** Wi-Fi throughout; a scenario may take it away with network.set('none'). */
    readonly network: ManualNetwork,
    readonly ledger: QueueLedger,
    private readonly queue: () => Promise<Set<string>>,
    /** Releases records locked by an upload still in flight (closing gave up waiting for it). */
    private readonly unlockAll: () => Promise<number>,
    private readonly track: StreetTrack,
    random: Random,
    private readonly pace: ServicePace,
    battery: number | undefined,
  ) {
    const drawn = random.between(0.5, 1);
    this.battery = Math.round((battery ?? drawn) * 100) / 100;
    bg.onHttp((event) => {
      const counts = this.counts(this.phase);
      if (event.success) {
        counts.ok++;
        counts.records += this.ledger.acknowledged.size - this.acknowledgedSeen;
      } else {
        counts.failed++;
        this.lastUploadFailure = describeUploadFailure(event);
      }
      this.acknowledgedSeen = this.ledger.acknowledged.size;
      this.duplicatesReported += duplicatesIn(event.responseText);
    });
    bg.onRemoteCommand((event) => this.remoteCommands.push(event));
  }

  static async create(options: DeviceOptions): Promise<SimulatedDevice> {
    const { store, ledger } = recordingStore(openSqliteStore(options.databaseFile));
    const network = new ManualNetwork('wifi');
    const faults = { provider: new FaultProvider(), clock: new OffsetClock(options.clock) };
    const bg = await createBackgroundGeolocation({
      store,
      network,
      clock: faults.clock,
      // The pace observes every answer the device gets (the service's or a fault point's).
      transport: options.pace.observe(createFetchTransport()),
      trackingProvider: faults.provider,
      device: { uuid: options.id, model: 'waypost-simulator', manufacturer: 'waypost', platform: 'simulated' },
    });
    const queue = async () => new Set((await store.locations.list({ order: 'ASC' })).map((record) => record.uuid));
    const device = new SimulatedDevice(
      options.id,
      bg,
      network,
      ledger,
      queue,
      () => store.locations.unlockAll(),
      new StreetTrack(options.random, options.origin),
      options.random,
      options.pace,
      options.battery,
    );
    device.faults = faults;
    await bg.ready({
      http: {
        url: options.url,
        params: { device_id: options.id },
        batchSync: options.upload.batchSync,
        maxBatchSize: options.upload.maxBatchSize,
        autoSyncThreshold: options.upload.autoSyncThreshold,
        ...(options.presenceInterval === undefined ? {} : { presenceInterval: options.presenceInterval }),
        disableAutoSyncOnCellular: options.fault === 'wifi-only-cellular',
        ...(options.httpTimeoutMs === undefined ? {} : { timeout: options.httpTimeoutMs }),
      },
      logger: { logLevel: 'INFO' },
      ...(options.authorization ? { authorization: options.authorization } : {}),
    });
    await bg.start();
    return device;
  }

  /** The battery level its next fix carries (0..1). */
  get batteryLevel(): number {
    return this.battery;
  }

  /** A battery running down: the next fixes carry this level. */
  drainBattery(level: number): void {
    this.battery = level;
  }

  /** The battery runs out: each fix one percent lower, and at SHUTDOWN_BATTERY the process is gone. */
  runOutOfBattery(): void {
    this.dying = true;
  }

  get driving(): boolean {
    return this.track.driving;
  }

  counts(phase: string): RequestCounts {
    let counts = this.requests.get(phase);
    if (!counts) {
      counts = { ok: 0, failed: 0, records: 0 };
      this.requests.set(phase, counts);
    }
    return counts;
  }

  /** Moves along the track by `ms` of simulated time and records the fix there. */
  async step(ms: number): Promise<void> {
    if (!this.dying && this.fault !== null && RECORDS_NOTHING_AFTER.has(this.fault)) return;
    this.track.advance(ms);
    const fix = this.track.fix();
    this.battery = this.dying
      ? Math.max(SHUTDOWN_BATTERY, this.battery - 0.01)
      : Math.max(0.05, this.battery - ms / 3_600_000 / 20);
    try {
      await this.bg.recordLocation({
        latitude: fix.latitude,
        longitude: fix.longitude,
        accuracy: fix.accuracy,
        speed: fix.speed,
        heading: fix.heading,
        activity: { type: fix.driving ? 'in_vehicle' : 'still', confidence: 90 },
        battery: { level: Math.round(this.battery * 100) / 100, is_charging: false },
        ...(this.extras ? { extras: this.extras as never } : {}),
      });
    } catch (error) {
      // A remote "stop" is a legitimate outcome of a run: count it instead of failing the fleet.
      this.recordErrors++;
      this.lastError = (error as Error).message;
    }
    if (this.dying && this.battery <= SHUTDOWN_BATTERY) {
      // Its last upload on an empty battery; then the phone shuts down.
      this.dying = false;
      await this.bg.sync().catch(() => []);
      await this.close();
    }
  }

  /**
   * Uploads until the queue is empty, the deadline passes or the run is halted; returns what is
   * still queued. A request a server never answers (up to http.timeout, 60 s) does not hold the
   * deadline; a Retry-After the service gave is waited for (up to the deadline) before asking again.
   */
  async drain(deadline: number, pauseMs = 200): Promise<number> {
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const queued = await this.bg.getCount();
      if (queued === 0 || Date.now() >= deadline || this.pace.isHalted) return queued;
      await this.pace.awaitService(deadline);
      const delivered = await beforeDeadline(
        this.bg.sync().then(
          (records) => records.length,
          () => 0,
        ),
        deadline,
      );
      if (delivered === null) {
        this.unanswered = true;
        return this.bg.getCount();
      }
      if (delivered === 0) await this.pace.sleep(Math.max(pauseMs, Math.min(this.pace.waitMs, deadline - Date.now())));
    }
    return this.bg.getCount();
  }

  queuedUuids(): Promise<Set<string>> {
    return this.queue();
  }

  /**
   * Closes the SDK; after `boundMs` an upload still unanswered stops being waited for: its records
   * are released (sent again by the next run, which the service deduplicates). Returns how many.
   */
  async close(boundMs = Infinity): Promise<number> {
    const closing = this.bg.close().then(() => true);
    const closed = Number.isFinite(boundMs) ? await beforeDeadline(closing, Date.now() + boundMs) : await closing;
    return closed === null ? this.unlockAll() : 0;
  }
}

/** The attempt's result, or null once the (real-time) deadline passes first. */
function beforeDeadline<T>(attempt: Promise<T>, deadline: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>(
    (resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
  );
  return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
}

/** The service's ingest reply carries {"stored": n, "duplicates": m}; anything else counts as 0. */
function duplicatesIn(responseText: string): number {
  try {
    const body = JSON.parse(responseText) as { duplicates?: unknown };
    return typeof body.duplicates === 'number' ? body.duplicates : 0;
  } catch {
    return 0;
  }
}
