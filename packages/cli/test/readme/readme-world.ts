// Where the README's examples run: a fresh folder (the user's project, with this repository's
// node_modules linked in so that `@waypost/node` and `npx waypost` resolve as after `npm ci`), a
// real Waypost server on its own SQLite file, and child processes that are killed, with their
// process groups, whatever the test's outcome.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { onTestFinished } from 'vitest';
import { startServer, type RunningServer } from '@waypost/server';
import { EXIT_WAIT_MS } from '../support/agent-process.js';
import { within } from '../support/bounded.js';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const ADMIN_TOKEN = 'readme-admin-token';

export interface World {
  dir: string;
  server: RunningServer;
}

/** A folder with node_modules and examples/ linked from the repository; removed after the test. */
export function userFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-readme-'));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(REPO, 'examples'), join(dir, 'examples'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function startWorld(): Promise<World> {
  const dir = userFolder();
  const server = await startServer({ port: 0, database: join(dir, 'readme-server.db'), adminToken: ADMIN_TOKEN });
  onTestFinished(() => server.close());
  return { dir, server };
}

/** The README's placeholder hosts become the test's server. */
export function pointAt(code: string, server: { url: string }): string {
  return code.replace(/https:\/\/(tracking|ingest)\.example\.com/g, server.url);
}

export interface ExampleProcess {
  output: () => string;
  /** Resolves once stdout or stderr matches; fails (bounded) with what was printed. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  /** The exit code, awaited 20 s at most from when it is read (a failure naming the command and its output). */
  readonly exited: Promise<number | null>;
}

/** Spawns in its own process group, killed with SIGKILL (group and all) when the test ends. */
export function spawnExample(command: string, args: string[], cwd: string): ExampleProcess {
  const child: ChildProcess = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exitedWith = once(child, 'exit').then(([code]) => code as number | null);
  onTestFinished(async () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    await exitedWith;
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    listeners.forEach((l) => l());
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(match);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`never printed ${pattern}; output:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return {
    output: () => output,
    waitFor,
    get exited() {
      return within(
        exitedWith,
        EXIT_WAIT_MS,
        () => `${command} ${args.join(' ').slice(0, 200)} to exit; output:\n${output.slice(-2000)}`,
      );
    },
  };
}

/** A TypeScript example compiled as it is written (esbuild strips the types) and run by node. */
export function runTsExample(code: string, dir: string, name = 'example'): ExampleProcess {
  const js = transformSync(code, { loader: 'ts', format: 'esm', target: 'node20' }).code;
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, js);
  return spawnExample(process.execPath, [file], dir);
}

/** A shell command line as a user types it, in the user's folder. */
export function runShell(line: string, dir: string): ExampleProcess {
  return spawnExample('sh', ['-c', line], dir);
}

export async function admin<T>(server: RunningServer, path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function storedCount(server: RunningServer, device: string): Promise<number> {
  const response = await fetch(`${server.url}/api/devices/${encodeURIComponent(device)}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (response.status === 404) return 0;
  if (!response.ok) throw new Error(`device ${device}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { records: number }).records;
}

/**
 * Resolves once the server holds at least `count` records of `device`: woken by the server's own
 * live feed (server-sent events), not by polling.
 */
export async function storedAtLeast(server: RunningServer, device: string, count: number, timeoutMs = 20_000) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(`${server.url}/api/events`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    for (;;) {
      const stored = await storedCount(server, device);
      if (stored >= count) return stored;
      const { done } = await reader.read(); // the next chunk of the feed: something was stored
      if (done) throw new Error('the live feed ended');
    }
  } catch (error) {
    if (abort.signal.aborted) {
      throw new Error(`${device}: ${await storedCount(server, device)} of ${count} records stored in ${timeoutMs} ms`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
