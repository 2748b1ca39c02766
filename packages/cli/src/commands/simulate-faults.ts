import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { durationFlag, integerFlag, numberFlag, stringFlag, type Parsed } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, signalExitCode, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { Progress } from '../progress.js';
import type { AdminApi } from '../simulate/admin-api.js';
import { runFaultSimulation } from '../simulate/fault-run.js';
import { parseFaultSpec } from '../simulate/fault-spec.js';
import { renderFaultSummary } from '../simulate/fault-summary.js';
import type { Fault } from '../simulate/faults.js';
import type { Fleet } from '../simulate/fleet.js';

const NAME = 'waypost simulate';
/** With --faults: the presence interval (s), the healthy run before the faults, the fix interval (s). */
export const FAULT_PRESENCE_S = 60;
const FAULT_WARMUP_MS = 30_000;
const FAULT_INTERVAL_S = 2;

export const FAULTS_HELP = `
Faults (docs/device-health.md, "Fault simulation"):
  --faults SPEC         put each device behind its own fault point (an HTTP proxy on 127.0.0.1),
                        inject one class of fault per device where it happens, and score the
                        service's answers against what was injected. SPEC: classes separated by
                        commas, each CLASS or CLASS=N (N devices of it); "all" is every class
                        (all=N). Classes: in the path (never forwarded): network-drops,
                        cut-mid-body, timeouts, server-errors (502), retry-after (503 with
                        Retry-After), records-refused (422), client-errors (404); on the service:
                        auth-refused (token revoked), server-refusal (a body it refuses, 400
                        TOO_DEEP), device-blocked, device-deleted; on the device: no-network,
                        wifi-only-cellular, permission-revoked, provider-off, no-fix,
                        tracking-stopped, autosync-off, killed, battery-dead, parked, clock-off.
                        Needs --admin-token. Runs in real time: healthy for --duration (default
                        30s), then the faults; a device the service still hears from must be
                        named within one presence interval; one cut off must be named a likely
                        cause once silent, then it comes back and its silence must be explained
                        for certain. --devices, if given, adds healthy devices after the spec's.
                        Exit 0 when at least 95% of those heard are named, every cut-off one is
                        explained and no cause is ever named wrongly with certainty; else 1.
  --presence-interval S with --faults: the devices' http.presenceInterval (default ${FAULT_PRESENCE_S})
`;

/** The --faults run: parses its flags, runs, prints the summary; returns the exit code. */
export async function simulateWithFaults(
  values: Parsed['values'],
  io: Io,
  url: string,
  admin: AdminApi | null,
  idPrefix: string,
): Promise<number> {
  let spec: Fault[];
  try {
    spec = parseFaultSpec(stringFlag(values, 'faults') ?? '');
  } catch (error) {
    throw usageError(`${NAME}: --faults ${(error as Error).message}`);
  }
  if (!admin) {
    throw usageError(
      `${NAME}: --faults needs --admin-token (or WAYPOST_ADMIN_TOKEN): it reads the causes the service names and revokes tokens`,
    );
  }
  const speedup = stringFlag(values, 'speedup');
  if (speedup !== undefined && Number(speedup) !== 1) {
    throw usageError(
      `${NAME}: --faults runs in real time (the service judges silence by its own clock): leave out --speedup`,
    );
  }
  const devices = integerFlag(NAME, values, 'devices', spec.length, { min: spec.length, max: 1000 });
  const assigned: (Fault | null)[] = [...spec, ...Array<null>(devices - spec.length).fill(null)];
  const givenDir = stringFlag(values, 'database-dir');
  const databaseDir = givenDir ?? (await mkdtemp(join(tmpdir(), 'waypost-simulate-')));
  await mkdir(databaseDir, { recursive: true });
  const progress = new Progress(io.stderr);
  let fleet: Fleet | null = null;
  let signal: string | null = null;
  void io.shutdown().then((name) => {
    signal = name;
    fleet?.halt();
  });
  try {
    progress.note(`simulating ${devices} devices (${idPrefix}1 ...) with faults against ${url}`);
    const summary = await runFaultSimulation({
      url,
      admin,
      assigned,
      idPrefix,
      databaseDir,
      seed: integerFlag(NAME, values, 'seed', 1, { min: 0 }),
      intervalMs: numberFlag(NAME, values, 'interval', FAULT_INTERVAL_S, 0.1) * 1000,
      upload: { batchSync: values['batch'] === true, maxBatchSize: 100, autoSyncThreshold: 0 },
      presenceInterval: integerFlag(NAME, values, 'presence-interval', FAULT_PRESENCE_S, { min: 1, max: 86_400 }),
      warmupMs: durationFlag(NAME, values, 'duration', FAULT_WARMUP_MS),
      progress,
      onFleet: (f) => {
        fleet = f;
        if (signal !== null) f.halt();
      },
    });
    io.stdout.write(values['json'] === true ? `${JSON.stringify(summary, null, 2)}\n` : renderFaultSummary(summary));
    if (signal !== null) return signalExitCode(signal);
    return summary.passed ? EXIT_OK : EXIT_FAILURE;
  } finally {
    if (givenDir === undefined) await rm(databaseDir, { recursive: true, force: true });
  }
}
