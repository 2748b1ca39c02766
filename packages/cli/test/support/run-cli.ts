import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { onTestFinished } from 'vitest';
import { BIN, EXIT_WAIT_MS } from './agent-process.js';
import { within } from './bounded.js';

/** `waypost ARGS` as a child process, as a user runs it: its exit code and what it printed. */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const exited = once(child, 'exit');
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Bounded: a command that never exits (an upload that never ends) fails naming it.
  const [code] = (await within(exited, EXIT_WAIT_MS, `waypost ${args.join(' ').slice(0, 200)} to exit`)) as [
    number | null,
  ];
  return { code, stdout, stderr };
}
