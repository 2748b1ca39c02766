import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ServerOptions } from '@waypost/server';

export const PG_URL = process.env.WAYPOST_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** Fresh, empty storage for one suite; drop() removes it. */
  create(): Promise<{ options: ServerOptions; drop(): Promise<void> }>;
}

const sqlite: Backend = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-server-'));
    return {
      options: { database: join(dir, 'server.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export const freshSchemaName = (): string => `t_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;

const postgres: Backend = {
  name: 'postgres',
  async create() {
    const schema = freshSchemaName();
    return { options: { databaseUrl: `${PG_URL}?schema=${schema}` }, drop: () => dropSchema(schema) };
  },
};

export const backends: Backend[] = [sqlite, postgres];
