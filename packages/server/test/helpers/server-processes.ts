import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './backends.js';
import { buildServer, spawnServerScript, type ServerProcess } from './spawn-server.js';

const SCRIPT = fileURLToPath(new URL('../fixtures/server-process.mjs', import.meta.url));

const spawnServer = (schema: string): Promise<ServerProcess> => spawnServerScript(SCRIPT, [PG_URL, schema], 'pipe');

/**
 * `count` real server processes (the built server, each its own Node process) sharing one fresh
 * PostgreSQL schema for the enclosing describe block: the scale-out mode. Closing stdin ends one.
 */
export function useServerProcesses(count: number): ServerProcess[] {
  const servers: ServerProcess[] = [];
  const schema = freshSchemaName();
  beforeAll(async () => {
    buildServer();
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
