import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { durationFlag, formatDuration, integerFlag, numberFlag, requireFlag, stringFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, signalExitCode, usageError } from '../errors.js';
import { Progress } from '../progress.js';
import { createAdminApi } from '../simulate/admin-api.js';
import { Fleet, runFleet } from '../simulate/fleet.js';
import { renderReports } from '../simulate/render.js';
import { buildReports, totalLost } from '../simulate/summary.js';
import { explainUndelivered } from '../simulate/undelivered.js';
import type { Command } from './command.js';
import { FAULTS_HELP, simulateWithFaults } from './simulate-faults.js';

const NAME = 'waypost simulate';
/** Real time by default: the devices' clocks agree with the service's, as a real device's do. */
export const DEFAULT_SPEEDUP = 1;
const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;
/** After Ctrl-C, how long closing waits for uploads in flight: a person is waiting for the prompt. */
export const SIGNAL_CLOSE_MS = 3_000;

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'drive a fleet of simulated devices (real SDK instances) against a service',
  options: {
    url: { type: 'string' },
    devices: { type: 'string' },
    duration: { type: 'string' },
    'database-dir': { type: 'string' },
    interval: { type: 'string' },
    seed: { type: 'string' },
    speedup: { type: 'string' },
    batch: { type: 'boolean' },
    threshold: { type: 'string' },
    'admin-token': { type: 'string' },
    'drain-timeout': { type: 'string' },
    json: { type: 'boolean' },
    faults: { type: 'string' },
    'presence-interval': { type: 'string' },
    'device-prefix': { type: 'string' },
  },
  help: `Usage: ${NAME} --url URL [options]

Runs N real SDK instances (each with its own SQLite queue, a Wi-Fi network and
http.params {device_id: "<prefix><n>"}) that drive around a small street grid at 5-15 m/s,
turn at intersections and stop for 6-9 minutes now and then (longer than the SDK's
stopTimeout, so they go stationary). By default they run in real time, their clocks on the
service's time, as real devices' are. At the end every queue is drained and a table per
device is printed on stdout: recorded, delivered, queued, duplicates, lost.

Options:
  --url URL             the service's ingest URL, e.g. http://127.0.0.1:8080/locations (required)
  --devices N           number of devices (default 3)
  --duration D          simulated time to run: 90s, 30m, 1h (default 1m)
  --interval S          seconds of simulated time between fixes (default 5)
  --speedup X           simulated seconds per real second (default ${DEFAULT_SPEEDUP}, real time); 0 = as fast
                        as possible. Faster than real time replays the last --duration: records
                        and the devices' clocks lie in the past until the run ends (speeds stay
                        plausible; the service names the devices clock-off while their
                        clocks are more than 5 minutes behind)
  --device-prefix P     device ids are P<n> (default "sim-<run id>-": every run has its own
                        devices); give the same P to continue the same devices
  --seed N              tracks are reproducible for a seed (default 1)
  --database-dir DIR    keep the devices' queue files <prefix><n>.db in DIR (default: a temporary
                        folder, removed afterwards, also after Ctrl-C)
  --batch               upload with http.batchSync (maxBatchSize 100)
  --threshold N         http.autoSyncThreshold (default 0: upload every fix at once)
  --admin-token T       the service's admin token (or env WAYPOST_ADMIN_TOKEN): count lost
                        records against what the service stored, duplicates from its devices API
  --drain-timeout D     how long to keep syncing at the end until every queue is empty, and to wait
                        for uploads still unanswered when closing (default 30s); also the longest
                        Retry-After the fleet pauses for (the service's rate limit is honoured in
                        real time, whatever the speedup)
  --json                print the summary as JSON instead of a table

${FAULTS_HELP}
Ctrl-C (SIGINT) or SIGTERM stops the run: the summary so far is printed, the temporary folder
removed, and the exit code is 130 (SIGINT) or 143 (SIGTERM).

Exit codes: 0 every record delivered, 1 records lost, records left undelivered in the queues
(what to change is printed), nothing delivered at all, or an error, 2 bad command line,
130/143 stopped by SIGINT/SIGTERM.
`,
  async run(values, _positionals, io) {
    const url = requireFlag(NAME, values, 'url');
    try {
      new URL(url);
    } catch {
      throw usageError(`${NAME}: --url ${JSON.stringify(url)} is not a URL`);
    }
    const devices = integerFlag(NAME, values, 'devices', 3, { min: 1, max: 1000 });
    const durationMs = durationFlag(NAME, values, 'duration', 60_000);
    const intervalMs = numberFlag(NAME, values, 'interval', 5, 0.1) * 1000;
    const seed = integerFlag(NAME, values, 'seed', 1, { min: 0 });
    const speedupFlag = numberFlag(NAME, values, 'speedup', DEFAULT_SPEEDUP, 0);
    if (speedupFlag > 0 && speedupFlag < 1) {
      throw usageError(
        `${NAME}: --speedup ${speedupFlag} would put the devices' clocks ahead of real time: 1 or more, or 0`,
      );
    }
    const speedup = speedupFlag === 0 ? Infinity : speedupFlag;
    const threshold = integerFlag(NAME, values, 'threshold', 0, { min: 0 });
    const drainTimeoutMs = durationFlag(NAME, values, 'drain-timeout', DEFAULT_DRAIN_TIMEOUT_MS);
    const adminToken = stringFlag(values, 'admin-token') ?? io.env['WAYPOST_ADMIN_TOKEN'];
    // The admin token is only needed at the end, to count what the service stored: check it now,
    // so that a wrong one fails at once instead of after the whole simulated run.
    const admin = adminToken ? createAdminApi(url, adminToken) : null;
    await admin?.devices();
    const idPrefix = devicePrefix(stringFlag(values, 'device-prefix'));
    if (values['faults'] !== undefined) return simulateWithFaults(values, io, url, admin, idPrefix);
    if (values['presence-interval'] !== undefined) throw usageError(`${NAME}: --presence-interval goes with --faults`);

    // From here on a signal stops the run cleanly: summary so far, temporary folder removed.
    let signal: string | null = null;
    let halt = () => undefined as void;
    void io.shutdown().then((name) => {
      signal = name;
      halt();
    });
    const givenDir = stringFlag(values, 'database-dir');
    const databaseDir = givenDir ?? (await mkdtemp(join(tmpdir(), 'waypost-simulate-')));
    await mkdir(databaseDir, { recursive: true });

    const progress = new Progress(io.stderr);
    progress.note(
      `simulating ${devices} device${devices === 1 ? '' : 's'} for ${formatDuration(durationMs)} ` +
        `(seed ${seed}, speedup ${speedupFlag || 'max'}) against ${url}`,
    );
    const fleet = await Fleet.create({
      url,
      devices,
      databaseDir,
      seed,
      intervalMs,
      upload: { batchSync: values['batch'] === true, maxBatchSize: 100, autoSyncThreshold: threshold },
      // Simulated time ends when the run does: in real time (speedup 1) it is the real time
      // throughout; faster, the run replays the last --duration (records and the devices' clocks
      // in the past until the end).
      startTime: Date.now() - (speedup === Infinity ? durationMs : durationMs * (1 - 1 / speedup)),
      maxRetryAfterMs: drainTimeoutMs,
      idPrefix,
    });
    halt = () => {
      progress.note(`${signal}: stopping; the summary so far follows`);
      fleet.halt();
    };
    if (signal !== null) halt();
    // The run and its report; closing follows whatever the outcome.
    const runAndReport = async (): Promise<number> => {
      await runFleet(fleet, {
        durationMs,
        speedup,
        onStep: (elapsed) => {
          const t = fleet.totals();
          progress.update(
            elapsed / durationMs,
            `${formatDuration(elapsed)}/${formatDuration(durationMs)}  recorded ${t.recorded}  delivered ${t.delivered}` +
              `  failed uploads ${t.failedRequests}  driving ${t.driving}/${devices} (SDK: ${t.moving} moving)`,
          );
        },
      });
      if (!fleet.halted) progress.note('draining the queues...');
      const left = await fleet.drain(drainTimeoutMs);
      const reports = await buildReports(fleet.devices, admin);
      const lost = totalLost(reports);
      if (values['json'] === true) {
        io.stdout.write(`${JSON.stringify({ seed, durationMs, devices: reports, lost }, null, 2)}\n`);
      } else {
        io.stdout.write(renderReports(reports));
      }
      if (!adminToken) progress.note("no --admin-token: lost and duplicates are counted from the devices' side only");
      if (lost > 0) progress.note(`${lost} records lost`);
      if (signal !== null) return signalExitCode(signal);
      const failure = fleet.devices.map((d) => d.lastUploadFailure).find((f) => f !== null) ?? null;
      const why = explainUndelivered({
        left,
        drainTimeoutMs,
        throttled: fleet.pace.throttled,
        tooLongMs: fleet.pace.tooLongMs,
        unanswered: fleet.devices.some((d) => d.unanswered),
        lastFailure: failure,
        http: { url, timeout: fleet.devices[0]!.bg.config.current.http.timeout },
      });
      why.forEach((line) => progress.note(line));
      const recorded = reports.reduce((sum, r) => sum + r.recorded, 0);
      if (recorded > 0 && reports.every((r) => r.delivered === 0)) {
        progress.note(`nothing was delivered to ${url}${failure ? `: ${failure}` : ''}`);
        return EXIT_FAILURE;
      }
      return lost > 0 || left > 0 ? EXIT_FAILURE : EXIT_OK;
    };
    let code: number = EXIT_FAILURE;
    try {
      code = await runAndReport();
      return code;
    } finally {
      // Closing waits for uploads in flight no longer than the drain did: a server that never
      // answers would otherwise hold each one for http.timeout.
      const released = await fleet.close(signal === null ? drainTimeoutMs : Math.min(drainTimeoutMs, SIGNAL_CLOSE_MS));
      if (givenDir === undefined) await rm(databaseDir, { recursive: true, force: true });
      if (released > 0) {
        progress.note(
          `closing took over ${formatDuration(drainTimeoutMs)}: ${released} record(s) of uploads still unanswered released`,
        );
        // Their requests would keep the process alive until http.timeout: exit now, as the agent does.
        io.exit?.(code);
      }
    }
  },
};

/** Device ids of one run: the prefix given, else one of its own ("sim-<6 hex digits>-"). */
export function devicePrefix(given: string | undefined): string {
  if (given === undefined) return `sim-${randomBytes(3).toString('hex')}-`;
  if (!/^[A-Za-z0-9._-]{1,40}$/.test(given)) {
    throw usageError(`${NAME}: --device-prefix takes 1-40 letters, digits, ".", "_" or "-"`);
  }
  return given;
}
