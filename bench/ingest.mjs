// Server ingest benchmark: records/s through the BUILT @waypost/server over real HTTP (several
// concurrent keep-alive clients), for batches of 100 and of 1, into SQLite and PostgreSQL. Each case
// is printed next to a floor measured in the same run: the same rows inserted directly by the
// database driver, one transaction per batch. Run after `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startServer } from '../packages/server/dist/index.js';

const PG_URL =
  process.env.WAYPOST_TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLIENTS = 8;
/** The anchor's Express+Sequelize demo server on SQLite, records/s. */
const ANCHOR = { 100: 240, 1: 90 };
const TARGET_VS_ANCHOR = 50;
const CASES = [
  { batch: 100, records: 20_000 },
  { batch: 1, records: 8_000 },
];

const record = (i, run) => ({
  uuid: `${run}-${i}`,
  timestamp: new Date(Date.UTC(2024, 4, 1) + i * 1000).toISOString(),
  is_moving: true,
  odometer: i * 10,
  coords: {
    latitude: 48 + (i % 1000) / 10_000,
    longitude: 11 + (i % 1000) / 10_000,
    accuracy: 5,
    speed: 1.2,
    heading: 90,
    altitude: 520,
  },
  activity: { type: 'walking', confidence: 100 },
  battery: { level: 0.8, is_charging: false },
  extras: {},
});

function batchesOf(run, records, size) {
  const batches = [];
  for (let i = 0; i < records; i += size) {
    batches.push(Array.from({ length: Math.min(size, records - i) }, (_, j) => record(i + j, run)));
  }
  return batches;
}

/** Runs tasks with `CLIENTS` workers pulling from one list; returns elapsed seconds. */
async function concurrently(items, work) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function viaServer(url, batches, size) {
  let stored = 0;
  const seconds = await concurrently(batches, async (batch) => {
    const body = size === 1 ? { location: batch[0], device_id: 'bench' } : { location: batch, device_id: 'bench' };
    const response = await fetch(`${url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`server answered ${response.status}: ${await response.text()}`);
    stored += (await response.json()).stored;
  });
  const expected = batches.reduce((n, b) => n + b.length, 0);
  if (stored !== expected) throw new Error(`server stored ${stored} of ${expected} records`);
  return expected / seconds;
}

const FLOOR_TABLE = `CREATE TABLE floor_locations (device_id TEXT NOT NULL, uuid TEXT NOT NULL, recorded_at BIGINT NOT NULL,
  latitude DOUBLE PRECISION, longitude DOUBLE PRECISION, received_at BIGINT NOT NULL, record TEXT NOT NULL, UNIQUE (device_id, uuid))`;
const rowOf = (r) => [
  'bench',
  r.uuid,
  Date.parse(r.timestamp),
  r.coords.latitude,
  r.coords.longitude,
  Date.now(),
  JSON.stringify(r),
];

function sqliteFloor(file, batches) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(FLOOR_TABLE);
  const insert = db.prepare(`INSERT INTO floor_locations VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const insertBatch = db.transaction((batch) => {
    for (const r of batch) insert.run(...rowOf(r));
  });
  const started = process.hrtime.bigint();
  for (const batch of batches) insertBatch(batch);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  return batches.reduce((n, b) => n + b.length, 0) / seconds;
}

async function postgresFloor(schema, batches) {
  const pool = new pg.Pool({ connectionString: PG_URL, max: CLIENTS, options: `-c search_path=${schema}` });
  try {
    await pool.query(FLOOR_TABLE);
    const seconds = await concurrently(batches, async (batch) => {
      const client = await pool.connect();
      try {
        const params = batch.flatMap(rowOf);
        const values = batch
          .map((_, i) => `(${Array.from({ length: 7 }, (_, j) => `$${i * 7 + j + 1}`).join(',')})`)
          .join(',');
        await client.query('BEGIN');
        await client.query(`INSERT INTO floor_locations VALUES ${values} ON CONFLICT DO NOTHING`, params);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    });
    return batches.reduce((n, b) => n + b.length, 0) / seconds;
  } finally {
    await pool.end();
  }
}

async function withSchema(fn) {
  const schema = `bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    return await fn(schema);
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

async function runCase(backend, { batch, records }) {
  const run = `${backend}-${batch}-${Date.now()}`;
  const batches = batchesOf(run, records, batch);
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-bench-'));
    try {
      const server = await startServer({ port: 0, database: join(dir, 'server.db') });
      let rate;
      try {
        rate = await viaServer(server.url, batches, batch);
      } finally {
        await server.close();
      }
      return { rate, floor: sqliteFloor(join(dir, 'floor.db'), batches) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return withSchema(async (schema) => {
    const server = await startServer({ port: 0, databaseUrl: PG_URL, schema, poolSize: CLIENTS });
    let rate;
    try {
      rate = await viaServer(server.url, batches, batch);
    } finally {
      await server.close();
    }
    return { rate, floor: await postgresFloor(schema, batches) };
  });
}

let failed = false;
console.log(
  `server ingest, ${CLIENTS} concurrent keep-alive clients; anchor (Express+Sequelize, SQLite): ${ANCHOR[100]}/s in batches of 100, ${ANCHOR[1]}/s one by one`,
);
for (const backend of ['sqlite', 'postgres']) {
  for (const spec of CASES) {
    const label = `${backend.padEnd(8)} batch ${String(spec.batch).padStart(3)}`;
    try {
      const { rate, floor } = await runCase(backend, spec);
      const vsAnchor = rate / ANCHOR[spec.batch];
      console.log(
        `${label}: ${Math.round(rate)} records/s | floor ${Math.round(floor)} records/s | ratio ${(rate / floor).toFixed(2)} | ` +
          `${vsAnchor.toFixed(0)}x anchor (target ${TARGET_VS_ANCHOR}x: ${vsAnchor >= TARGET_VS_ANCHOR ? 'met' : 'NOT met'})`,
      );
    } catch (error) {
      failed = true;
      console.log(`${label}: FAILED ${error.message}`);
    }
  }
}
process.exit(failed ? 1 : 0);
