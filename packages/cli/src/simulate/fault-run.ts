import type { Progress } from '../progress.js';
import { formatDuration } from '../args.js';
import type { AdminApi, DeviceHealthAnswer } from './admin-api.js';
import { Fleet } from './fleet.js';
import type { UploadSettings } from './device.js';
import { FaultProxy } from './fault-proxy.js';
import { FaultScore } from './fault-score.js';
import { summarizeFaults, type FaultSummary } from './fault-summary.js';
import { faultClass, type Fault } from './faults.js';
import { injectFault, type FaultWorld } from './inject-fault.js';

export interface FaultRunOptions {
  url: string;
  admin: AdminApi;
  /** One class per device (null: a healthy device), in device order. */
  assigned: readonly (Fault | null)[];
  /** Device ids are `<idPrefix><n>`. */
  idPrefix: string;
  databaseDir: string;
  seed: number;
  intervalMs: number;
  upload: UploadSettings;
  /** The devices' http.presenceInterval (seconds). */
  presenceInterval: number;
  /** Healthy run before the faults. */
  warmupMs: number;
  progress: Progress;
  /** Called with the fleet once it exists (a signal halts it). */
  onFleet?: (fleet: Fleet) => void;
}

/** Real time between two looks at the service's answers. */
const LOOK_EVERY_MS = 2_000;

/**
 * Runs the fleet for `ms` of real time with its clock on real time: a step whenever the clock is
 * an interval behind, so a slow step is caught up instead of delaying every later timer (a
 * presence report late on the service's clock would look like silence).
 */
async function inRealTime(fleet: Fleet, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!fleet.halted && Date.now() < end) {
    const behind = Date.now() - fleet.clock.now();
    if (behind >= fleet.intervalMs) await fleet.step();
    else await fleet.pace.sleep(Math.min(fleet.intervalMs - behind, end - Date.now()));
  }
}

/** Every device's answer (GET /api/devices/:id/health): its named state and its history. */
async function lookAt(admin: AdminApi, ids: readonly string[]): Promise<DeviceHealthAnswer[]> {
  const answers = await Promise.all(ids.map((id) => admin.deviceHealth(id)));
  return answers.filter((answer): answer is DeviceHealthAnswer => answer !== null);
}

/**
 * `waypost simulate --faults` (issues 31 and 39): a fleet in real time (the service judges silence
 * and clocks by its own clock), each device behind its own fault point (an HTTP proxy on
 * 127.0.0.1), healthy for `warmupMs`; then one class of fault per device, made where it happens
 * (docs/device-health.md, "Fault simulation"). The service is told nothing: the score is its
 * answers against the truth. Devices it still hears from must be named within one presence
 * interval; the devices cut off must be named a likely cause once silent, then come back (the
 * path heals, the network returns, a killed app starts again) and have their silence explained
 * for certain. Every look and every device's health history is checked for a wrong cause named
 * with certainty.
 */
export async function runFaultSimulation(options: FaultRunOptions): Promise<FaultSummary> {
  const { admin, progress, assigned } = options;
  const idOf = (index: number) => `${options.idPrefix}${index + 1}`;
  const ids = assigned.map((_, index) => idOf(index));
  const proxies: FaultProxy[] = [];
  let fleet: Fleet | null = null;
  try {
    for (let n = 0; n < assigned.length; n++) proxies.push(await FaultProxy.start(options.url));
    const tokens = new Map<string, Record<string, unknown>>();
    for (const [index, fault] of assigned.entries()) {
      // A revoked token is the server's own refusal; and a body the server refuses can be put down
      // to its device only by its token (a device named inside the body alone is not known then).
      if (fault !== 'auth-refused' && fault !== 'server-refusal') continue;
      const pair = await admin.register(idOf(index));
      tokens.set(idOf(index), {
        strategy: 'JWT',
        accessToken: pair.accessToken,
        refreshToken: pair.refreshToken,
        expires: pair.expires,
        refreshUrl: `${proxies[index]!.origin}/auth/refresh`,
        refreshPayload: { refresh_token: '{refreshToken}' },
      });
    }
    const retryAfterSeconds = Math.max(1, Math.floor(options.presenceInterval / 2));
    // A black hole is given up on within a presence interval, as a real app's timeout would be
    // within its reporting interval.
    const httpTimeoutMs = Math.min(60_000, Math.max(1_000, options.presenceInterval * 1000));
    fleet = await Fleet.create({
      url: options.url,
      deviceUrl: (n) => proxies[n - 1]!.url(options.url),
      idPrefix: options.idPrefix,
      devices: assigned.length,
      databaseDir: options.databaseDir,
      seed: options.seed,
      intervalMs: options.intervalMs,
      upload: options.upload,
      startTime: Date.now(),
      maxRetryAfterMs: 0,
      faults: assigned,
      presenceInterval: options.presenceInterval,
      httpTimeoutMs,
      authorization: (id) => tokens.get(id),
    });
    options.onFleet?.(fleet);
    const score = new FaultScore(new Map(assigned.map((fault, index) => [idOf(index), fault])));
    const look = async () => {
      const answers = await lookAt(admin, ids);
      score.look(Date.now(), answers);
      for (const answer of answers) score.history(answer.id, answer.history);
    };

    progress.note(`healthy for ${formatDuration(options.warmupMs)}, then the faults`);
    await inRealTime(fleet, options.warmupMs);
    for (const device of fleet.devices) await device.bg.sync().catch(() => []);
    await look();
    const world: Omit<FaultWorld, 'proxy'> = { service: admin, retryAfterSeconds };
    for (const [index, fault] of assigned.entries()) {
      if (fault === null) continue;
      await injectFault(fleet.devices[index]!, fault, { ...world, proxy: proxies[index]! });
      score.injected(idOf(index), Date.now());
    }
    const { silentAfterSeconds } = await admin.health();
    // One upload or presence interval (and one look) for a device the service hears from.
    const boundMs = options.presenceInterval * 1000 + options.intervalMs + LOOK_EVERY_MS;
    const silentBoundMs = boundMs + silentAfterSeconds * 1000 + 2 * options.intervalMs;
    progress.note(
      `faults injected into ${assigned.filter((f) => f !== null).length} devices; waiting up to ` +
        `${formatDuration(silentBoundMs)} for the service to name them (presence interval ` +
        `${options.presenceInterval}s, its silence threshold ${silentAfterSeconds}s)`,
    );
    const deadline = Date.now() + silentBoundMs;
    while (!fleet.halted && !score.settled() && Date.now() < deadline) {
      await inRealTime(fleet, LOOK_EVERY_MS);
      await look();
    }

    const cut = assigned.flatMap((fault, index) => (fault !== null && !faultClass(fault).heard ? [index] : []));
    if (cut.length > 0 && !fleet.halted) {
      // Only a silence longer than the service's threshold is a silent period to explain: they
      // stay away until each has been quiet that long (from the time the service gives).
      const lastHeard = cut.map((index) => Date.parse(score.rows()[index]!.last?.since ?? '') || Date.now());
      const quietLongEnough = Math.max(...lastHeard) + silentAfterSeconds * 1000 + LOOK_EVERY_MS;
      while (!fleet.halted && Date.now() < quietLongEnough) {
        await inRealTime(fleet, Math.min(LOOK_EVERY_MS, quietLongEnough - Date.now()));
        await look();
      }
      for (const index of cut) await comeBack(fleet, index, assigned[index]!, proxies[index]!);
      progress.note(`${cut.length} cut-off devices are back (the path healed, the network returned, the app started)`);
      // A presence interval, a gateway's Retry-After, and a request in flight when the path healed.
      const backBy =
        Date.now() + (options.presenceInterval + retryAfterSeconds) * 1000 + httpTimeoutMs + 3 * options.intervalMs;
      while (!fleet.halted && Date.now() < backBy) {
        await inRealTime(fleet, LOOK_EVERY_MS);
        await look();
        if (cut.every((index) => score.rows()[index]!.explained !== null)) break;
      }
    }
    await look();
    return summarizeFaults(score.rows(), score.looks, boundMs);
  } finally {
    await fleet?.close(5_000);
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}

/** A cut-off device comes back: its path heals, its network returns, its app starts again. */
async function comeBack(fleet: Fleet, index: number, fault: Fault, proxy: FaultProxy): Promise<void> {
  const device = fleet.devices[index]!;
  if (faultClass(fault).place === 'path') proxy.mode = { kind: 'pass' };
  else if (fault === 'killed' || fault === 'battery-dead') await fleet.restart(index + 1);
  else if (fault === 'autosync-off') await device.bg.setConfig({ http: { autoSync: true } });
  else device.network.set('wifi');
}
