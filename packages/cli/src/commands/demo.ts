import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, signalExitCode } from '../errors.js';
import type { Io } from '../io.js';
import { Progress } from '../progress.js';
import { createAdminApi } from '../simulate/admin-api.js';
import { Fleet, runFleet } from '../simulate/fleet.js';
import { renderReports } from '../simulate/render.js';
import { buildReports, type DeviceReport } from '../simulate/summary.js';
import { dashboardUrl, loadStartServer, type RunningServer } from '../server-loader.js';
import type { Command } from './command.js';
import { SIGNAL_CLOSE_MS } from './simulate.js';

/** The scenario's timeline, as fractions of the simulated duration. */
export interface DemoPlan {
  durationMs: number;
  speedup: number;
  intervalMs: number;
  outageFrom: number;
  outageUntil: number;
  commandAt: number;
  drainTimeoutMs: number;
}

export const FULL_PLAN: DemoPlan = {
  durationMs: 30 * 60_000,
  speedup: 90,
  intervalMs: 5000,
  outageFrom: 0.3,
  outageUntil: 0.55,
  commandAt: 0.65,
  drainTimeoutMs: 30_000,
};

/** A few seconds of real time, for the test suite: same story, shorter and unpaced. */
export const SHORT_PLAN: DemoPlan = { ...FULL_PLAN, durationMs: 16 * 60_000, speedup: 1000, drainTimeoutMs: 20_000 };

const DEVICES = 3;
const SEED = 42;
/** The device that receives the remote command, and the command: it switches to batches of up to 50. */
export const COMMAND_DEVICE = 'sim-2';
export const DEMO_COMMAND = ['setConfig', { http: { batchSync: true, maxBatchSize: 50, autoSyncThreshold: 10 } }];

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run the service and three devices through an outage and a remote command',
  options: {
    serve: { type: 'boolean' },
    short: { type: 'boolean' },
  },
  help: `Usage: waypost demo [--serve] [--short]

Starts the service on SQLite in a temporary folder, drives three simulated devices against it,
takes the service down for a while (the devices keep recording, their uploads fail and the
records wait in their queues), brings it back on the same port and database, sends one remote
command to ${COMMAND_DEVICE} through the admin API:
  ${JSON.stringify(DEMO_COMMAND)}
so that its uploads become batches, waits until every queue is empty, and prints a table per
device: recorded, delivered, queued, duplicates, lost, requests before/after the command.

Options:
  --serve   keep the service and its dashboard up afterwards (Ctrl-C to stop)
  --short   a few seconds instead of about half a minute (used by the test suite)

Ctrl-C (SIGINT) or SIGTERM stops it: the table so far is printed, the temporary folder (service
database, device queues) removed, and the exit code is 130 (SIGINT) or 143 (SIGTERM).

Exit codes: 0 nothing lost, nothing stored twice and every queue empty; 1 otherwise; 130/143
stopped by SIGINT/SIGTERM.
`,
  async run(values, _positionals, io) {
    return runDemo(values['short'] === true ? SHORT_PLAN : FULL_PLAN, values['serve'] === true, io);
  },
};

export async function runDemo(plan: DemoPlan, serve: boolean, io: Io): Promise<number> {
  const progress = new Progress(io.stderr);
  // A signal stops the demo cleanly from the start: the table so far, the temporary folder removed.
  const signalled = io.shutdown();
  let signal: string | null = null;
  let serving = false;
  let halt = (): void => undefined;
  void signalled.then((name) => {
    if (serving) return; // --serve: the demo is over, the signal ends the serving
    signal = name;
    progress.note(`${name}: stopping; the table so far follows`);
    halt();
  });
  const dir = await mkdtemp(join(tmpdir(), 'waypost-demo-'));
  const database = join(dir, 'server.db');
  const adminToken = randomBytes(18).toString('base64url');
  const startServer = await loadStartServer();
  let server: RunningServer | null = await startServer({
    port: 0,
    host: '127.0.0.1',
    database,
    adminToken,
    logger: false,
  });
  const port = server.port;
  const baseUrl = server.url;
  const admin = createAdminApi(baseUrl, adminToken);
  progress.note(`service up at ${baseUrl} (SQLite ${database})`);
  const fleet = await Fleet.create({
    url: `${baseUrl}/locations`,
    devices: DEVICES,
    databaseDir: dir,
    seed: SEED,
    intervalMs: plan.intervalMs,
    upload: { batchSync: false, maxBatchSize: 100, autoSyncThreshold: 0 },
    startTime: Date.now() - plan.durationMs,
    maxRetryAfterMs: plan.drainTimeoutMs,
  });
  halt = () => fleet.halt();
  if (signal !== null) halt();
  progress.note(
    `${DEVICES} devices driving for ${formatDuration(plan.durationMs)} of simulated time ` +
      `(${plan.speedup}x real time), a fix every ${plan.intervalMs / 1000} s`,
  );
  fleet.setPhase('before');
  let failedAtOutage = 0;
  try {
    await runFleet(fleet, {
      durationMs: plan.durationMs,
      speedup: plan.speedup,
      onStep: async (elapsed) => {
        const fraction = elapsed / plan.durationMs;
        const totals = fleet.totals();
        const clock = formatDuration(elapsed);
        if (server && fraction >= plan.outageFrom && fraction < plan.outageUntil) {
          await server.close();
          server = null;
          failedAtOutage = totals.failedRequests;
          progress.note(`[${clock}] service DOWN: the devices keep recording, their uploads fail and records queue`);
        } else if (!server && fraction >= plan.outageUntil) {
          const queued = totals.recorded - totals.delivered;
          progress.note(
            `[${clock}] service BACK on port ${port}, same database: ${totals.failedRequests - failedAtOutage} ` +
              `uploads failed meanwhile, ${queued} records queued on the devices`,
          );
          server = await startServer({ port, host: '127.0.0.1', database, adminToken, logger: false });
        } else if (fraction >= plan.commandAt && fleet.devices[0]?.phase === 'before') {
          await admin.queueCommand(COMMAND_DEVICE, DEMO_COMMAND);
          fleet.setPhase('after');
          progress.note(`[${clock}] remote command queued for ${COMMAND_DEVICE}: ${JSON.stringify(DEMO_COMMAND)}`);
        }
        const queued = totals.recorded - totals.delivered;
        progress.update(
          fraction,
          `${clock} ${server ? 'service up  ' : 'service DOWN'}  recorded ${totals.recorded}  ` +
            `delivered ${totals.delivered}  queued ${queued}  failed uploads ${totals.failedRequests}  ` +
            `moving ${totals.moving}/${DEVICES}`,
        );
      },
    });
    if (!fleet.halted) progress.note('waiting for every queue to empty...');
    const left = await fleet.drain(plan.drainTimeoutMs);
    // During the outage the service is down: the table is then from the devices' side only.
    const reports = await buildReports(fleet.devices, server ? admin : null);
    io.stdout.write(renderReports(reports, demoColumns(fleet)));
    io.stdout.write(
      `req before/after: successful upload requests before/after the remote command was queued for ${COMMAND_DEVICE}\n`,
    );
    for (const device of fleet.devices) {
      for (const command of device.remoteCommands) {
        io.stdout.write(
          `${device.id} ran remote command ${command.command}${command.ok ? '' : ` (failed: ${command.error})`}\n`,
        );
      }
    }
    const commanded = fleet.devices.find((d) => d.id === COMMAND_DEVICE);
    if (commanded && commanded.remoteCommands.length === 0) {
      io.stdout.write(`${COMMAND_DEVICE} reported no remote command (this SDK build does not run them)\n`);
    }
    if (signal !== null) {
      io.stdout.write(`stopped by ${signal} after ${formatDuration(fleet.elapsedMs)} of simulated time\n`);
      return signalExitCode(signal);
    }
    const verdict = judge(reports, left);
    io.stdout.write(`${verdict.message}\n`);
    serving = true;
    if (serve && server) {
      // Listening since the start: a SIGTERM sent as soon as the address is printed closes cleanly.
      io.stdout.write(`dashboard: ${dashboardUrl(baseUrl)}\nadmin token: ${adminToken}\n`);
      progress.note('serving until Ctrl-C...');
      await signalled;
      return verdict.ok ? EXIT_OK : EXIT_FAILURE;
    }
    return verdict.ok ? EXIT_OK : EXIT_FAILURE;
  } finally {
    await fleet.close(signal === null ? Infinity : SIGNAL_CLOSE_MS);
    await (server as RunningServer | null)?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Requests before and after the command, and records per request after it: the visible change. */
function demoColumns(fleet: Fleet): Record<string, (r: DeviceReport) => string | number> {
  const device = (r: DeviceReport) => fleet.devices.find((d) => d.id === r.device)!;
  return {
    'req before': (r) => device(r).counts('before').ok,
    'req after': (r) => device(r).counts('after').ok,
    'rec/req after': (r) => {
      const after = device(r).counts('after');
      return after.ok === 0 ? '-' : (after.records / after.ok).toFixed(1);
    },
  };
}

function judge(reports: readonly DeviceReport[], left: number): { ok: boolean; message: string } {
  const lost = reports.reduce((sum, r) => sum + r.lost, 0);
  const twice = reports.reduce((sum, r) => sum + (r.storedTwice ?? 0), 0);
  const problems = [
    ...(lost > 0 ? [`${lost} records lost`] : []),
    ...(twice > 0 ? [`${twice} records stored twice`] : []),
    ...(left > 0 ? [`${left} records still queued`] : []),
  ];
  return problems.length === 0
    ? { ok: true, message: 'OK: every recorded location reached the service exactly once.' }
    : { ok: false, message: `FAILED: ${problems.join(', ')}.` };
}
