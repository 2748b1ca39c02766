// Where the long-history bench keeps its generated databases between runs: a SQLite file under the
// temp directory and a PostgreSQL schema, both named by the generator's version and the record
// count, and marked complete only once filled (an interrupted fill starts over).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer } from '../../packages/server/dist/index.js';
import { fillPostgres, fillSqlite } from './long-history-fill.mjs';

/** Bump when the generated history changes: older caches are then not reused. */
const GENERATOR_VERSION = 1;

export const cacheNames = (records) => ({
  dir: join(tmpdir(), `waypost-bench-history-v${GENERATOR_VERSION}-${records}`),
  schema: `bench_history_v${GENERATOR_VERSION}_${records}`,
});

const createSchemaFor = (options) => startServer({ port: 0, adminToken: 'x', ...options }).then((s) => s.close());

/** A filled SQLite file for `records`, generated now unless a complete one is cached. */
export async function cachedSqlite(records, log) {
  const { dir } = cacheNames(records);
  const file = join(dir, 'server.db');
  const done = join(dir, 'filled');
  if (existsSync(done)) return { file, generatedMs: 0 };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  await createSchemaFor({ database: file });
  fillSqlite(file, records, log);
  writeFileSync(done, new Date().toISOString());
  return { file, generatedMs: Date.now() - started };
}

/** A filled PostgreSQL schema for `records`, generated now unless a complete one is cached. */
export async function cachedPostgres(url, records, log) {
  const { schema } = cacheNames(records);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const marked = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'bench_filled'`,
      [schema],
    );
    if (marked.rowCount > 0) return { schema, generatedMs: 0 };
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
  const started = Date.now();
  await createSchemaFor({ databaseUrl: url, schema });
  await fillPostgres(url, schema, records, log);
  const mark = new pg.Client({ connectionString: url });
  await mark.connect();
  await mark.query(`CREATE TABLE "${schema}".bench_filled (at TEXT)`);
  await mark.end();
  return { schema, generatedMs: Date.now() - started };
}
