import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** A server running in a child process of its own (its memory, its crash, its restart). */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/** Child processes run the built server: brings packages/server/dist up to date (tsc -b). */
export function buildServer(): void {
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('node_modules/typescript/bin/tsc', `file://${ROOT}/`)), '-b', 'packages/server'],
    { cwd: ROOT },
  );
}

/**
 * Runs `node <script> <args>` (a fixture that starts the server and prints its URL as its first
 * line); resolves with the child and that URL, rejects if the child exits first. With stdin 'pipe',
 * closing the child's stdin ends it.
 */
export function spawnServerScript(
  script: string,
  args: readonly string[],
  stdin: 'ignore' | 'pipe' = 'ignore',
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script, ...args], { stdio: [stdin, 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (url) => resolve({ child, url }));
  });
}

/** Ends a child at once (SIGKILL: no shutdown of its own, as a crash) and resolves once it is gone. */
export async function killProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/**
 * Server processes of one test file, each running `script` with its options as JSON; killAll()
 * (in afterAll) ends every one still running.
 */
export function serverProcesses(script: string): {
  spawn(options: Record<string, unknown>): Promise<ServerProcess>;
  killAll(): Promise<void>;
} {
  const children: ChildProcess[] = [];
  return {
    spawn: async (options) => {
      const started = spawnServerScript(script, [JSON.stringify(options)], 'pipe');
      const server = await started;
      children.push(server.child);
      return server;
    },
    killAll: async () => {
      await Promise.all(children.map(killProcess));
    },
  };
}
