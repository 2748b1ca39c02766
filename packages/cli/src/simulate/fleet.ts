import { join } from 'node:path';
import { ManualClock } from '@waypost/node';
import { SimulatedDevice, type DeviceOptions, type UploadSettings } from './device.js';
import { ServicePace } from './pacing.js';
import { createRandom } from './random.js';
import type { Origin } from './street-grid.js';
import type { Fault } from './faults.js';

/** Where the simulated city lies (central Berlin); every device drives on the same grid. */
export const CITY_ORIGIN: Origin = { latitude: 52.5163, longitude: 13.3777 };

export interface FleetOptions {
  /** The ingest URL the devices upload to. */
  url: string;
  devices: number;
  databaseDir: string;
  seed: number;
  intervalMs: number;
  upload: UploadSettings;
  /** Simulated time at which the run starts (epoch ms). */
  startTime: number;
  /** The longest Retry-After the fleet waits for in real time (longer ones leave records queued). */
  maxRetryAfterMs: number;
  /** Device ids are `<idPrefix><n>` (default "sim-"). */
  idPrefix?: string;
  /**
   * The fault each device will be given (device n gets faults[n - 1]; null or missing: none), for
   * what must be set up from the start (a Wi-Fi-only device, a battery about to run out).
   */
  faults?: readonly (Fault | null)[];
  /** Per device number, the URL it uploads to instead of `url` (its fault point's). */
  deviceUrl?: (n: number) => string;
  /** Per device id, the authorization configuration it uploads with (device tokens). */
  authorization?: (deviceId: string) => Record<string, unknown> | undefined;
  /** http.presenceInterval of every device (seconds); default the SDK's. */
  presenceInterval?: number;
  /** http.timeout of every device (ms); default the SDK's. */
  httpTimeoutMs?: number;
}

/** Totals across the fleet, for progress lines. */
export interface FleetTotals {
  recorded: number;
  delivered: number;
  failedRequests: number;
  /** Devices whose track is driving, and devices the SDK's motion detection considers moving. */
  driving: number;
  moving: number;
}

/**
 * A fleet of simulated devices on one ManualClock: each step advances simulated time by the
 * interval (firing the SDKs' own timers: heartbeats, stop timeouts) and records one fix per device.
 */
export class Fleet {
  private elapsed = 0;

  private constructor(
    readonly clock: ManualClock,
    readonly devices: SimulatedDevice[],
    readonly intervalMs: number,
    readonly pace: ServicePace,
  ) {}

  static async create(options: FleetOptions): Promise<Fleet> {
    const clock = new ManualClock(options.startTime);
    const pace = new ServicePace(options.maxRetryAfterMs);
    const devices: SimulatedDevice[] = [];
    try {
      for (let n = 1; n <= options.devices; n++)
        devices.push(await SimulatedDevice.create(deviceOptions(options, n, clock, pace)));
    } catch (error) {
      await Promise.all(devices.map((device) => device.close()));
      throw error;
    }
    const fleet = new Fleet(clock, devices, options.intervalMs, pace);
    fleet.restartOptions = (n) => deviceOptions(options, n, clock, pace);
    return fleet;
  }

  private restartOptions: ((n: number) => DeviceOptions) | null = null;

  /**
   * Starts device n again, as an app is after its process was killed: a new SDK instance on its
   * queue file (what was queued is still there), healthy; the old instance must be closed.
   */
  async restart(n: number): Promise<SimulatedDevice> {
    const device = await SimulatedDevice.create({ ...this.restartOptions!(n), fault: undefined, battery: undefined });
    this.devices[n - 1] = device;
    return device;
  }

  /** Simulated time since the start. */
  get elapsedMs(): number {
    return this.elapsed;
  }

  async step(): Promise<void> {
    await this.clock.advance(this.intervalMs);
    this.elapsed += this.intervalMs;
    await Promise.all(this.devices.map((device) => device.step(this.intervalMs)));
  }

  /** Stops the run (a signal): no further step, the drain and every real-time wait end at once. */
  halt(): void {
    this.pace.halt();
  }

  get halted(): boolean {
    return this.pace.isHalted;
  }

  setPhase(phase: string): void {
    for (const device of this.devices) device.phase = phase;
  }

  totals(): FleetTotals {
    const totals: FleetTotals = { recorded: 0, delivered: 0, failedRequests: 0, driving: 0, moving: 0 };
    for (const device of this.devices) {
      totals.recorded += device.ledger.recorded.size;
      totals.delivered += device.ledger.acknowledged.size;
      for (const counts of device.requests.values()) totals.failedRequests += counts.failed;
      if (device.driving) totals.driving++;
      if (device.bg.tracking.isMoving) totals.moving++;
    }
    return totals;
  }

  /** Uploads every queue until empty or `timeoutMs` of real time passes; returns what is left. */
  async drain(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    const left = await Promise.all(this.devices.map((device) => device.drain(deadline)));
    return left.reduce((a, b) => a + b, 0);
  }

  /** Closes every device; with a bound, returns the records of unanswered uploads it released. */
  async close(boundMs = Infinity): Promise<number> {
    const released = await Promise.all(this.devices.map((device) => device.close(boundMs)));
    return released.reduce((a, b) => a + b, 0);
  }
}

export interface RunOptions {
  durationMs: number;
  /** Simulated seconds per real second; Infinity runs as fast as the machine allows. */
  speedup: number;
  /** Called after every step, awaited: scenarios (an outage, a command) hook in here. */
  onStep?: (elapsedMs: number) => Promise<void> | void;
}

/**
 * Steps the fleet through `durationMs` of simulated time, paced to `speedup` against real time and
 * to the service's Retry-After, until halted.
 */
export async function runFleet(fleet: Fleet, options: RunOptions): Promise<void> {
  const started = Date.now();
  let paused = 0;
  const steps = Math.ceil(options.durationMs / fleet.intervalMs);
  for (let i = 0; i < steps && !fleet.halted; i++) {
    // Each fix waits for its time first: at speedup 1 the clock never runs ahead of real time.
    const dueMs = (fleet.elapsedMs + fleet.intervalMs) / options.speedup - (Date.now() - started - paused);
    if (dueMs > 1) await fleet.pace.sleep(dueMs);
    if (fleet.halted) break;
    await fleet.step();
    await options.onStep?.(fleet.elapsedMs);
    // Time spent waiting for the service does not count against the speedup's schedule.
    const waitStarted = Date.now();
    await fleet.pace.awaitService();
    paused += Date.now() - waitStarted;
  }
}

/** Battery of a device whose battery will run out during the run: a few percent left. */
const NEARLY_EMPTY = 0.06;

/** The options of device n of a fleet (its fault's set-up included). */
function deviceOptions(options: FleetOptions, n: number, clock: ManualClock, pace: ServicePace): DeviceOptions {
  const fault = options.faults?.[n - 1] ?? undefined;
  const id = `${options.idPrefix ?? 'sim-'}${n}`;
  const authorization = options.authorization?.(id);
  return {
    id,
    url: options.deviceUrl?.(n) ?? options.url,
    databaseFile: join(options.databaseDir, `${id}.db`),
    clock,
    random: createRandom(options.seed * 7919 + n),
    origin: CITY_ORIGIN,
    upload: options.upload,
    pace,
    ...(fault ? { fault } : {}),
    ...(fault === 'battery-dead' ? { battery: NEARLY_EMPTY } : {}),
    // A process is killed at whatever its battery is, low ones included (not only when nearly empty).
    ...(fault === 'killed' ? { battery: createRandom(options.seed * 104_729 + n).between(0.03, 1) } : {}),
    ...(authorization ? { authorization } : {}),
    ...(options.presenceInterval === undefined ? {} : { presenceInterval: options.presenceInterval }),
    ...(options.httpTimeoutMs === undefined ? {} : { httpTimeoutMs: options.httpTimeoutMs }),
  };
}
