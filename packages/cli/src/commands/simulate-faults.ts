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
import { faultsPassed, renderFaultSummary } from '../simulate/fault-summary.js';
import type { Fault } from '../simulate/faults.js';
import type { Fleet } from '../simulate/fleet.js';

const NAME = 'waypost simulate';
/** With --faults: the presence interval (s), the healthy run before the faults, the fix interval (s). */
export const FAULT_PRESENCE_S = 60;
const FAULT_WARMUP_MS = 30_000;
const FAULT_INTERVAL_S = 2;

export const FAULTS_HELP = `
Faults (docs/device-health.md, "Fault simulation"):
  --faults SPEC         inject one class of silence per device and print, per device, the class
                        and the cause the service named. SPEC: classes separated by commas, each
                        CLASS or CLASS=N (N devices of it); "all" is every class (all=N). Classes:
                        no-network, wifi-only-cellular, server-errors, retry-after, auth-refused
                        (the service revokes the device's token), records-refused,
                        permission-revoked, provider-off, tracking-stopped, killed, parked,
                        clock-off. Needs --admin-token. Runs in real time (the service judges
                        silence by its own clock): healthy for --duration (default 30s), then the
                        faults, then up to one presence interval plus the service's
                        silentAfterSeconds until every device is named; the devices cut off
                        come back (the network returns, a killed app starts again) and their
                        silent period must be explained.
                        --devices, if given, adds healthy devices after the spec's.
                        Exit 0 when at least 95% are named, none wrong with certainty and every
                        silent period of a device back is explained; else 1.
  --presence-interval S with --faults: the devices' http.presenceInterval (default ${FAULT_PRESENCE_S})
`;

/** The --faults run: parses its flags, runs, prints the summary; returns the exit code. */
export async function simulateWithFaults(
  values: Parsed['values'],
  io: Io,
  url: string,
  admin: AdminApi | null,
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
    progress.note(`simulating ${devices} devices with faults against ${url}`);
    const summary = await runFaultSimulation({
      url,
      admin,
      assigned,
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
    return faultsPassed(summary) ? EXIT_OK : EXIT_FAILURE;
  } finally {
    if (givenDir === undefined) await rm(databaseDir, { recursive: true, force: true });
  }
}
