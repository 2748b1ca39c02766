import { join } from 'node:path';
import { ManualClock } from '@waypost/node';
import { SimulatedDevice, type DeviceOptions, type UploadSettings } from './device.js';
import { ServicePace } from './pacing.js';
import { createRandom } from './random.js';
import type { Origin } from './street-grid.js';
import type { Fault } from './faults.js';
import { injectFault } from './inject-fault.js';

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
  /**
   * One fault per device, in turn (device n gets faults[(n - 1) % length]; null: none, a healthy
   * device to compare with); injected by injectFaults().
   */
  faults?: readonly (Fault | null)[];
  /** The Retry-After of the `retry-after` fault (seconds). */
  retryAfterSeconds?: number;
  /** Per device id, the authorization configuration it uploads with (device tokens). */
  authorization?: (deviceId: string) => Record<string, unknown> | undefined;
  /** http.presenceInterval of every device (seconds); default the SDK's. */
  presenceInterval?: number;
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
    private readonly faults: readonly (Fault | null)[],
  ) {}

  /**
   * Injects each device's fault (issue 31); returns which device got which. `revoke`: how a
   * device's tokens are revoked on the server, for a real `auth-refused` (else its answers turn 401).
   */
  async injectFaults(revoke?: (deviceId: string) => Promise<void>): Promise<Map<string, Fault>> {
    const given = new Map<string, Fault>();
    if (this.faults.length === 0) return given;
    for (const [index, device] of this.devices.entries()) {
      const fault = this.faults[index % this.faults.length] ?? null;
      if (fault === null) continue;
      if (fault === 'auth-refused' && revoke) {
        await revoke(device.id);
        device.fault = fault;
      } else await injectFault(device, fault, this.intervalMs);
      given.set(device.id, fault);
    }
    return given;
  }

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
    const fleet = new Fleet(clock, devices, options.intervalMs, pace, options.faults ?? []);
    fleet.restartOptions = (n) => deviceOptions(options, n, clock, pace);
    return fleet;
  }

  private restartOptions: ((n: number) => DeviceOptions) | null = null;

  /**
   * Starts device `sim-<n>` again, as an app is after its process was killed: a new SDK instance on
   * its queue file (what was queued is still there), healthy; the old instance must be closed.
   */
  async restart(n: number): Promise<SimulatedDevice> {
    const device = await SimulatedDevice.create({ ...this.restartOptions!(n), fault: undefined });
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
    await fleet.step();
    await options.onStep?.(fleet.elapsedMs);
    // Time spent waiting for the service does not count against the speedup's schedule.
    const waitStarted = Date.now();
    await fleet.pace.awaitService();
    paused += Date.now() - waitStarted;
    const dueMs = fleet.elapsedMs / options.speedup - (Date.now() - started - paused);
    if (dueMs > 1) await fleet.pace.sleep(dueMs);
  }
}

/** The options of device `sim-<n>` of a fleet (its fault's set-up included). */
function deviceOptions(options: FleetOptions, n: number, clock: ManualClock, pace: ServicePace): DeviceOptions {
  const fault = options.faults?.length ? (options.faults[(n - 1) % options.faults.length] ?? undefined) : undefined;
  const authorization = options.authorization?.(`sim-${n}`);
  return {
    id: `sim-${n}`,
    url: options.url,
    databaseFile: join(options.databaseDir, `sim-${n}.db`),
    clock,
    random: createRandom(options.seed * 7919 + n),
    origin: CITY_ORIGIN,
    upload: options.upload,
    pace,
    ...(fault ? { fault } : {}),
    ...(authorization ? { authorization } : {}),
    ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds }),
    ...(options.presenceInterval === undefined ? {} : { presenceInterval: options.presenceInterval }),
  };
}
