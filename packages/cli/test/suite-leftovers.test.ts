// The suite's own leftover check (scripts/test-leftovers, vitest's globalSetup; issue 17 item 7):
// a run whose test leaves a process or a temporary folder behind fails and names them, and still
// leaves nothing; a run that cleans up passes. Each case is a vitest run of its own, as `npm test`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';

const VITEST = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));
const CONFIG = fileURLToPath(new URL('./fixtures/leftovers/vitest.config.ts', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-suite-leftovers-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function fixtureRun(leak: boolean) {
  const pidFile = join(dir, 'pid');
  const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FIXTURE_LEAK: leak ? 'yes' : 'no', FIXTURE_PID_FILE: pidFile, NO_COLOR: '1' },
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = await exited;
  return { code, output, pid: Number(readFileSync(pidFile, 'utf8')) };
}

/** Running (a killed process may linger as a zombie until whoever adopted it reaps it). */
const running = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('the suite-level leftover check', () => {
  it('fails a run that leaves a process and a temporary folder, names both, and removes them', async () => {
    const run = await fixtureRun(true);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/Tests\s+1 passed/); // the test itself passed: the check fails the run
    expect(run.output).toMatch(/The test run left things behind/);
    expect(run.output).toMatch(new RegExp(`pid ${run.pid} \\(parent \\d+, state \\w\\): sleep 300`));
    expect(run.output).toMatch(/temporary file\(s\) or folder\(s\) still there:\n {2}\S+[\\/]waypost-fixture-\w+\n/);
    expect(running(run.pid)).toBe(false);
  });

  it('passes a run whose test ends what it started', async () => {
    const run = await fixtureRun(false);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toMatch(/left things behind/);
  });
});
