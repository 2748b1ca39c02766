import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';

// Runs against the BUILT package (dist): `npm test` builds first.
const PROGRAM = fileURLToPath(new URL('./fixtures/close-and-exit.mjs', import.meta.url));
/** Node's start-up and the program's own work take well under a second; an hour's wait would not fit. */
const EXIT_BOUND_MS = 10_000;

describe('a program using @waypost/node exits on its own after close()', () => {
  it('with a Retry-After of an hour, the hourly heartbeat and retry, a dwell and a position request pending', async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    server.setDefault({ status: 503, json: { code: 'UNAVAILABLE' }, headers: { 'retry-after': '3600' } });

    const child = spawn(process.execPath, [PROGRAM, join(tempDir(), 'program.db'), server.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'still running'>(
      (resolve) => (timer = setTimeout(() => resolve('still running'), EXIT_BOUND_MS)),
    );
    const outcome = await Promise.race([exited, late]).finally(() => clearTimeout(timer));

    expect(
      outcome,
      `the program did not exit within ${EXIT_BOUND_MS} ms; stdout:\n${stdout}\nstderr:\n${stderr}`,
    ).toEqual([0, null]);
    expect(stdout).toBe('upload answered 503\nclosed\ngetCurrentPosition CLOSED\n');
  });
});
