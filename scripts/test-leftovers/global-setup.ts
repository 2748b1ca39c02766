// The suite checks itself (registered as vitest's globalSetup): a run that leaves a process running
// or a temporary file behind fails, naming them. Everything is attributed to this run, not guessed
// from names, so that other runs on the same machine never count:
// - processes: the run puts a marker in the environment its workers inherit, and with it every
//   process a test starts (and what those start), detached or not;
// - files: the run has a temporary folder of its own (TMPDIR, which os.tmpdir(), mkdtemp, Python,
//   gpsd and Chromium all honour); whatever is in it at the end was made by a test and left there.
// What is found is listed, then killed and deleted, so that even a failing run leaves nothing.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeLeftovers, leftoverProcesses } from './leftovers.js';
import { listProcesses } from './processes.js';

export const RUN_MARKER = 'WAYPOST_TEST_RUN';
/** A process killed and awaited may take a moment to leave the process table; no test waits longer. */
const SETTLE_MS = 2_000;

/** Set in vitest's own process by the first setup: each project of the config calls setup once. */
const OWNED = Symbol.for('waypost.test-leftovers.run');
/**
 * What the run itself started for its tests (the shared Chromium of the page tests) registers its
 * closing here; it is closed before the check, which then finds only what the tests left.
 */
const BEFORE_CHECK = Symbol.for('waypost.test-leftovers.before-check');

export default function setup(): () => Promise<void> {
  // One run, one marker and one folder: a second project's setup in the same process does nothing
  // (the first one's check, at the end of the run, covers every project's tests).
  const state = globalThis as { [OWNED]?: true; [BEFORE_CHECK]?: Array<() => Promise<void>> };
  if (state[OWNED]) return async () => {};
  state[OWNED] = true;
  const saved = { tmpdir: process.env.TMPDIR, marker: process.env[RUN_MARKER] };
  const id = randomUUID();
  const runTmp = mkdtempSync(join(tmpdir(), 'waypost-test-run-'));
  process.env[RUN_MARKER] = id;
  process.env.TMPDIR = runTmp;
  const marker = `${RUN_MARKER}=${id}`;
  const collect = () => ({
    processes: leftoverProcesses(listProcesses(marker), process.pid),
    entries: readdirSync(runTmp).map((entry) => join(runTmp, entry)),
  });

  return async () => {
    delete state[OWNED];
    await Promise.all((state[BEFORE_CHECK] ?? []).map((close) => close()));
    delete state[BEFORE_CHECK];
    let found = collect();
    const deadline = Date.now() + SETTLE_MS;
    while ((found.processes.length > 0 || found.entries.length > 0) && Date.now() < deadline) {
      await sleep(100);
      found = collect();
    }
    for (const [name, value] of [
      ['TMPDIR', saved.tmpdir],
      [RUN_MARKER, saved.marker],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    for (const { pid } of found.processes) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile, or a zombie its parent's death takes away
      }
    }
    rmSync(runTmp, { recursive: true, force: true });
    const report = describeLeftovers(found.processes, found.entries);
    if (report !== null) {
      process.exitCode = 1;
      const error = new Error(report);
      error.stack = report; // where this check threw says nothing: the list is the message
      throw error;
    }
  };
}
