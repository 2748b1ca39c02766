import type { Progress } from '../progress.js';
import { formatDuration } from '../args.js';
import type { AdminApi, ExplainedSilence, NamedHealth } from './admin-api.js';
import { Fleet } from './fleet.js';
import type { UploadSettings } from './device.js';
import { FAULTS, type Fault } from './faults.js';
import { COMES_BACK, summarizeFaults, type FaultSummary } from './fault-summary.js';

export interface FaultRunOptions {
  url: string;
  admin: AdminApi;
  /** One class per device (null: a healthy device), in device order. */
  assigned: readonly (Fault | null)[];
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

/**
 * `waypost simulate --faults` (issue 31): a fleet in real time (the service judges silence and
 * clocks by its own clock), healthy for `warmupMs`, then one class of silence per device; then it
 * waits, no longer than one presence interval plus the service's silence threshold (and a few
 * fixes), until the service names every faulted device with the injected class's cause. The
 * devices the fault cut off come back (the network returns, a killed app starts again), and the service's
 * explanation of their silent period is read from their health history. Devices with the
 * auth-refused class upload with device tokens the service issued, and their tokens are revoked.
 */
export async function runFaultSimulation(options: FaultRunOptions): Promise<FaultSummary> {
  const { admin, progress, assigned } = options;
  const origin = new URL(options.url).origin;
  const tokens = new Map<string, Record<string, unknown>>();
  for (const [index, fault] of assigned.entries()) {
    if (fault !== 'auth-refused') continue;
    const id = `sim-${index + 1}`;
    const pair = await admin.register(id);
    tokens.set(id, {
      strategy: 'JWT',
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      expires: pair.expires,
      refreshUrl: `${origin}/auth/refresh`,
      refreshPayload: { refresh_token: '{refreshToken}' },
    });
  }
  const fleet = await Fleet.create({
    url: options.url,
    devices: assigned.length,
    databaseDir: options.databaseDir,
    seed: options.seed,
    intervalMs: options.intervalMs,
    upload: options.upload,
    startTime: Date.now(),
    maxRetryAfterMs: 0,
    faults: assigned,
    presenceInterval: options.presenceInterval,
    // Over well before the service could call the device quiet.
    retryAfterSeconds: Math.max(1, Math.floor(options.presenceInterval / 2)),
    authorization: (id) => tokens.get(id),
  });
  options.onFleet?.(fleet);
  try {
    progress.note(`healthy for ${formatDuration(options.warmupMs)}, then the faults`);
    await inRealTime(fleet, options.warmupMs);
    for (const device of fleet.devices) await device.bg.sync().catch(() => []);
    const injected = await fleet.injectFaults((id) => admin.revokeTokens(id));
    const { silentAfterSeconds } = await admin.health();
    const boundMs = (options.presenceInterval + silentAfterSeconds) * 1000 + 3 * options.intervalMs + LOOK_EVERY_MS;
    progress.note(
      `faults injected into ${injected.size} devices; waiting up to ${formatDuration(boundMs)} for the service ` +
        `to name them (presence interval ${options.presenceInterval}s, its silence threshold ${silentAfterSeconds}s)`,
    );
    let named = new Map<string, NamedHealth>();
    const allNamed = () => [...injected].every(([id, fault]) => named.get(id)?.cause === FAULTS[fault].cause);
    const deadline = Date.now() + boundMs;
    while (!fleet.halted) {
      named = new Map((await admin.health()).devices.map((d) => [d.id, d]));
      if (allNamed() || Date.now() >= deadline) break;
      await inRealTime(fleet, LOOK_EVERY_MS);
    }
    // Back: the network returns to the devices it was taken from; their silent period is explained.
    const back = [...injected].filter(([, fault]) => COMES_BACK.has(fault)).map(([id]) => id);
    const silences = new Map<string, ExplainedSilence | null>();
    if (back.length > 0 && !fleet.halted) {
      // Only a silence longer than the service's threshold is a silent period to explain: on a fast
      // machine the devices are named within seconds, so they stay away until each has been quiet
      // that long (from the time the service gives), then come back.
      const quietLongEnough =
        Math.max(...back.map((id) => Date.parse(named.get(id)?.since ?? '') || Date.now())) +
        silentAfterSeconds * 1000 +
        LOOK_EVERY_MS;
      while (!fleet.halted && Date.now() < quietLongEnough) {
        await inRealTime(fleet, Math.min(LOOK_EVERY_MS, quietLongEnough - Date.now()));
      }
      for (const [id, fault] of injected) {
        if (fault === 'killed') await fleet.restart(Number(id.slice('sim-'.length)));
        else if (back.includes(id)) fleet.devices.find((d) => d.id === id)?.network.set('wifi');
      }
      const backBy = Date.now() + 3 * options.intervalMs + 2 * LOOK_EVERY_MS;
      progress.note(`${back.length} cut-off devices are back (Wi-Fi again, a killed app started again)`);
      while (!fleet.halted) {
        await inRealTime(fleet, LOOK_EVERY_MS);
        for (const id of back) silences.set(id, (await admin.explainedSilences(id))[0] ?? null);
        if ([...silences.values()].every((s) => s !== null) || Date.now() >= backBy) break;
      }
    }
    return summarizeFaults(
      fleet.devices.map((d) => d.id),
      injected,
      named,
      silences,
    );
  } finally {
    await fleet.close(5_000);
  }
}
