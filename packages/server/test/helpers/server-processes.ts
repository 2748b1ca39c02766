import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './backends.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../fixtures/server-process.mjs', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

function spawnServer(schema: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SCRIPT, PG_URL, schema], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (url) => resolve({ child, url }));
  });
}

/**
 * `count` real server processes (the built server, each its own Node process) sharing one fresh
 * PostgreSQL schema for the enclosing describe block: the scale-out mode. Closing stdin ends one.
 */
export function useServerProcesses(count: number): ServerProcess[] {
  const servers: ServerProcess[] = [];
  const schema = freshSchemaName();
  beforeAll(async () => {
    // The child processes run the built server: bring dist up to date first.
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('node_modules/typescript/bin/tsc', `file://${ROOT}/`)), '-b', 'packages/server'],
      { cwd: ROOT },
    );
    servers.push(...(await Promise.all(Array.from({ length: count }, () => spawnServer(schema)))));
  });
  afterAll(async () => {
    await Promise.all(
      servers.map(({ child }) => new Promise((resolve) => (child.once('exit', resolve), child.stdin!.end()))),
    );
    await dropSchema(schema);
  });
  return servers;
}
