// Server ingest benchmark: records/s through the BUILT @waypost/server over real HTTP, for batches of
// 100 and of 1, into SQLite and PostgreSQL. The load comes from a separate child process (so the
// clients do not share the server's event loop), as a fleet: CLIENTS keep-alive connections, each one
// device uploading its batches one after the other, as the SDK does. Each case is printed next to
// floors measured in every round of the same run (the median of the rounds' own ratios): the same rows inserted
// directly by the database driver, one transaction per batch (on PostgreSQL with as many concurrent connections as there are clients),
// and the same load against a minimal node:http service that inserts the same rows in one
// transaction per request (bench/lib/minimal-ingest-server.mjs): the floor a Node service can
// reach, which Waypost, with every check, must stay within TARGET_VS_MINIMAL of (issue 20; raised
// by issue 43). Beside them the database's own bulk path for the same rows (issue 43): every
// device's batch of a round at once (SQLite: one prepared statement in one transaction; PostgreSQL:
// COPY), the ceiling any service storing these rows approaches.
// Run after `npm run build`. WAYPOST_BENCH_CLIENTS changes the fleet size (default 50).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { batchesOf, deviceOf, loadFromChild, warmedRun } from './lib/ingest-load.mjs';
import { ANCHOR_DIR, startAnchor } from './lib/anchor-server.mjs';
import { startMinimalIngestServer } from './lib/minimal-ingest-server.mjs';
import { startNullIngestServer } from './lib/null-ingest-server.mjs';
import { createSchema, dropSchema, PG_URL } from './lib/pg-schema.mjs';

const CLIENTS = Number(process.env.WAYPOST_BENCH_CLIENTS ?? 50);
/** For profiling one case: WAYPOST_BENCH_ONLY=sqlite:1,postgres:100 */
const ONLY = process.env.WAYPOST_BENCH_ONLY?.split(',');
/** The anchor's demo server is measured in this run when WAYPOST_ANCHOR_DIR names an installed clone. */
const TARGET_VS_ANCHOR = 50;
/**
 * The 50x line holds where this machine leaves room for it: where a server that stores nothing
 * reaches at least twice the target (100x the anchor). Below that the ratio is reported, not gated:
 * on a 2-core machine whose load process shares the cores, the ceiling for one record per request
 * is itself about 50x the anchor measured now (BENCHMARKS.md).
 */
const CEILING_FOR_TARGET = 2 * TARGET_VS_ANCHOR;
/** Fewer records for the anchor: it takes ~10 ms a record one by one. */
const ANCHOR_RECORDS = { 100: 10_000, 1: 2_000 };
/** Issue 43: batches within 0.9 of the minimal service, one per request at least its rate. */
const TARGET_VS_MINIMAL = { 100: 0.9, 1: 1.0 };
/**
 * Issue 43: PostgreSQL batches within 0.8 of the driver's per-batch insert (one transaction per
 * batch on as many connections as devices). On SQLite the driver's ratio is reported only: one
 * writer, in the server's process, so no service over HTTP comes near it.
 */
const TARGET_VS_DRIVER = { 'postgres:100': 0.8 };
/**
 * Rounds per case (issue 43: 5, from 3): single rounds of a case spread by +-10% on a quiet 2-core
 * machine, and the verdict is the median of the rounds' own ratios (each round runs Waypost, the
 * minimal service and the floors one after another, so a ratio pairs figures taken seconds apart).
 */
const ROUNDS = Number(process.env.WAYPOST_BENCH_ROUNDS ?? 5);
const POOL_SIZE = 10; // Waypost's default PostgreSQL pool, given to the minimal service too
/** Records of a round: a batch-100 round lasts about a second on a quiet machine (40,000 before: half that). */
const CASES = [
  { batch: 100, records: 80_000 },
  { batch: 1, records: 20_000 },
];
/**
 * Each case starts with one round of this share of its records, not counted: a server measured for
 * a second would otherwise count V8 compiling its code (about 0.5 s of a helper thread's CPU in the
 * first seconds of Waypost's ingest; the minimal service has little code to compile). A server
 * runs for months: the steady state is what a round measures.
 */
const WARM_UP_SHARE = 0.2;
/**
 * The round's load against a freshly started service, after its own warm-up (SERVER_WARM_UP_SHARE,
 * the same for Waypost and the minimal service; the case's warm-up round above warms the code, this
 * the instance): records/s.
 */
async function viaServer(url, run, { batch, records }) {
  return (await warmedRun({ urls: [url], run, records, batch, clients: CLIENTS })).rate;
}

// ---- the floor ----------------------------------------------------------------------------------

const FLOOR_TABLE = `CREATE TABLE floor_locations (device_id TEXT NOT NULL, uuid TEXT NOT NULL, recorded_at BIGINT NOT NULL,
  latitude DOUBLE PRECISION, longitude DOUBLE PRECISION, received_at BIGINT NOT NULL, record TEXT NOT NULL, UNIQUE (device_id, uuid))`;
const rowOf = (client, r) => [
  deviceOf(client),
  r.uuid,
  Date.parse(r.timestamp),
  r.coords.latitude,
  r.coords.longitude,
  Date.now(),
  JSON.stringify(r),
];

function sqliteFloor(file, perClient) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(FLOOR_TABLE);
  const insert = db.prepare(`INSERT INTO floor_locations VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const insertBatch = db.transaction((client, batch) => {
    for (const r of batch) insert.run(...rowOf(client, r));
  });
  // Batches in the order the fleet sends them (round-robin over clients).
  const rounds = Math.max(...perClient.map((b) => b.length));
  let records = 0;
  const started = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) {
    for (let client = 0; client < perClient.length; client++) {
      const batch = perClient[client][round];
      if (!batch) continue;
      insertBatch(client, batch);
      records += batch.length;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  return records / seconds;
}

async function postgresFloor(schema, perClient) {
  const pool = new pg.Pool({ connectionString: PG_URL, max: CLIENTS, options: `-c search_path=${schema}` });
  try {
    await pool.query(FLOOR_TABLE);
    let records = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      perClient.map(async (batches, client) => {
        for (const batch of batches) {
          const db = await pool.connect();
          try {
            const params = batch.flatMap((r) => rowOf(client, r));
            const values = batch
              .map((_, i) => `(${Array.from({ length: 7 }, (_, j) => `$${i * 7 + j + 1}`).join(',')})`)
              .join(',');
            await db.query('BEGIN');
            await db.query(`INSERT INTO floor_locations VALUES ${values} ON CONFLICT DO NOTHING`, params);
            await db.query('COMMIT');
            records += batch.length;
          } finally {
            db.release();
          }
        }
      }),
    );
    return records / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await pool.end();
  }
}

// ---- the bulk floor: the database's own bulk path for the same rows (issue 43) ------------------

/** The fleet's batches round by round (every device's k-th batch): what arrives at about one time. */
function roundsOf(perClient) {
  const rounds = Math.max(...perClient.map((b) => b.length));
  return Array.from({ length: rounds }, (_, k) =>
    perClient.flatMap((batches, client) => (batches[k] ? batches[k].map((r) => rowOf(client, r)) : [])),
  );
}

/** SQLite: one prepared statement, one transaction per round of the fleet (many batches each). */
function sqliteBulkFloor(file, perClient) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(FLOOR_TABLE);
  const insert = db.prepare(`INSERT INTO floor_locations VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const insertRound = db.transaction((rows) => {
    for (const row of rows) insert.run(...row);
  });
  const rounds = roundsOf(perClient);
  let records = 0;
  const started = process.hrtime.bigint();
  for (const rows of rounds) {
    insertRound(rows);
    records += rows.length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  return records / seconds;
}

/** A value in COPY's text format: \N for null, the four characters COPY reads as escapes escaped. */
const COPY_ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const copyField = (value) =>
  value === null || value === undefined
    ? '\\N'
    : typeof value === 'string'
      ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c])
      : String(value);

/**
 * PostgreSQL: COPY, each round of the fleet in one COPY (its own transaction), the text encoded in
 * the timed loop as a service would have to. As many connections as the machine has cores take the
 * rounds in turn: one connection leaves a core idle while the other side works (on 2 cores, one
 * connection reached about 55-65% of two; four no more than two).
 */
async function postgresBulkFloor(schema, perClient) {
  const connections = availableParallelism();
  const pool = new pg.Pool({ connectionString: PG_URL, max: connections, options: `-c search_path=${schema}` });
  try {
    await pool.query(FLOOR_TABLE);
    const rounds = roundsOf(perClient);
    let next = 0;
    let records = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        const client = await pool.connect();
        try {
          while (next < rounds.length) {
            const rows = rounds[next++];
            const text = rows.map((row) => row.map(copyField).join('\t')).join('\n') + '\n';
            await pipeline(Readable.from([text]), client.query(copyFrom('COPY floor_locations FROM STDIN')));
            records += rows.length;
          }
        } finally {
          client.release();
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM floor_locations');
    if (rows[0].n !== records) throw new Error(`COPY stored ${rows[0].n} of ${records} rows`);
    return records / seconds;
  } finally {
    await pool.end();
  }
}

async function withSchema(fn) {
  const schema = `bench_${process.pid}_${Date.now()}`;
  await createSchema(schema);
  try {
    return await fn(schema);
  } finally {
    await dropSchema(schema);
  }
}

// ---- the run ------------------------------------------------------------------------------------

/** The load comes from one address at many times a device's rate: this measures ingest, not the limiter. */
const NO_RATE_LIMITS = { rateLimit: 0, rateLimitPerAddress: 0 };

/** Starts a service, sends it the run's load from the load process, closes it; records/s. */
async function measure(start, run, spec, minimalSchemaOf) {
  if (minimalSchemaOf) await createSchema(`${minimalSchemaOf}_minimal`);
  const server = await start();
  try {
    return await viaServer(server.url, run, spec);
  } finally {
    await server.close();
    if (minimalSchemaOf) await dropSchema(`${minimalSchemaOf}_minimal`);
  }
}

/** One round: Waypost, then the minimal service, each on a fresh database, the same load. */
async function round(startServer, backend, spec, run) {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-bench-'));
    try {
      const rate = await measure(
        () => startServer({ port: 0, database: join(dir, 'server.db'), ...NO_RATE_LIMITS }),
        run,
        spec,
      );
      const minimal = await measure(() => startMinimalIngestServer({ sqlite: join(dir, 'minimal.db') }), run, spec);
      return { rate, minimal };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return withSchema(async (schema) => {
    const rate = await measure(
      () => startServer({ port: 0, databaseUrl: PG_URL, schema, poolSize: POOL_SIZE, ...NO_RATE_LIMITS }),
      run,
      spec,
    );
    const minimal = await measure(
      () => startMinimalIngestServer({ postgres: PG_URL, schema: `${schema}_minimal`, poolSize: POOL_SIZE }),
      run,
      spec,
      schema,
    );
    return { rate, minimal };
  });
}

/** The anchor on a fresh SQLite file, the same fleet and record shape; records/s, or null when not installed. */
async function anchorRate(batch) {
  if (!ANCHOR_DIR) return null;
  const anchor = await startAnchor();
  const records = ANCHOR_RECORDS[batch];
  try {
    const { seconds } = await loadFromChild({
      urls: [anchor.url],
      run: `anchor-${batch}-${Date.now()}`,
      records,
      batch,
      clients: CLIENTS,
    });
    const stored = anchor.stored();
    if (stored !== records) throw new Error(`the anchor stored ${stored} of ${records} records`);
    return records / seconds;
  } finally {
    await anchor.close();
  }
}

/** What a server that stores nothing takes from the same fleet: records/s. */
async function ceilingRate(batch) {
  const server = await startNullIngestServer();
  try {
    const records = CASES.find((c) => c.batch === batch).records;
    const { seconds } = await loadFromChild({
      urls: [server.url],
      run: `null-${batch}`,
      records,
      batch,
      clients: CLIENTS,
    });
    return records / seconds;
  } finally {
    await server.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The driver's per-batch insert and the bulk floor for one round's load, each on a fresh database.
 * Measured in every round, between the services' runs, like them: one measurement of a floor at the
 * end of a case read 45,866 and 79,055 rec/s on PostgreSQL in two runs of one quiet hour, which alone
 * moved the driver ratio from 0.71 to 1.02.
 */
async function floorsOf(backend, spec, run) {
  const perClient = batchesOf(run, spec.records, spec.batch, CLIENTS);
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-bench-'));
    try {
      return {
        floor: sqliteFloor(join(dir, 'floor.db'), perClient),
        bulk: sqliteBulkFloor(join(dir, 'bulk.db'), perClient),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const floor = await withSchema((schema) => postgresFloor(schema, perClient));
  const bulk = await withSchema((schema) => postgresBulkFloor(schema, perClient));
  return { floor, bulk };
}

/** ROUNDS interleaved rounds (a busy neighbour slows all alike): Waypost, the minimal service, the floors; medians. */
async function runCase(startServer, backend, spec) {
  const warmUp = { ...spec, records: Math.round(spec.records * WARM_UP_SHARE) };
  await round(startServer, backend, warmUp, `${backend}-${spec.batch}-${Date.now()}-warm-up`);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const run = `${backend}-${spec.batch}-${Date.now()}-${i}`;
    rounds.push({
      ...(await round(startServer, backend, spec, run)),
      ...(await floorsOf(backend, spec, `${run}-floor`)),
    });
  }
  const of = (key) => median(rounds.map((r) => r[key]));
  const ratios = (key) => rounds.map((r) => r.rate / r[key]);
  const shown = (values) => values.map((v) => v.toFixed(2)).join(' ');
  console.log(
    `  rounds: to minimal ${shown(ratios('minimal'))} | to driver ${shown(ratios('floor'))} | ` +
      `waypost ${rounds.map((r) => Math.round(r.rate)).join(' ')} | minimal ${rounds.map((r) => Math.round(r.minimal)).join(' ')}`,
  );
  return {
    rate: of('rate'),
    minimal: of('minimal'),
    floor: of('floor'),
    bulk: of('bulk'),
    vsMinimal: median(ratios('minimal')),
    vsDriver: median(ratios('floor')),
    vsBulk: median(ratios('bulk')),
  };
}

async function main() {
  const { startServer } = await import('../packages/server/dist/index.js');
  let failed = false;
  console.log(`server ingest, ${CLIENTS} devices on keep-alive connections from a separate load process`);
  const anchor = {};
  const gated = {};
  for (const { batch } of CASES) {
    if (ONLY && !ONLY.some((only) => only.endsWith(`:${batch}`))) continue;
    anchor[batch] = await anchorRate(batch);
    const ceiling = await ceilingRate(batch);
    if (anchor[batch] === null) {
      console.log(`batch ${batch}: anchor not measured (set WAYPOST_ANCHOR_DIR, see BENCHMARKS.md)`);
      continue;
    }
    gated[batch] = ceiling / anchor[batch] >= CEILING_FOR_TARGET;
    console.log(
      `batch ${batch}: anchor (Express+Sequelize, SQLite) measured now ${Math.round(anchor[batch])} records/s; ` +
        `a server that stores nothing ${Math.round(ceiling)}/s = ${(ceiling / anchor[batch]).toFixed(0)}x anchor ` +
        `(the ${TARGET_VS_ANCHOR}x line is ${gated[batch] ? 'gated' : 'reported, not gated: no room for it on this machine'})`,
    );
  }
  for (const backend of ['sqlite', 'postgres']) {
    for (const spec of CASES) {
      if (ONLY && !ONLY.includes(`${backend}:${spec.batch}`)) continue;
      const label = `${backend.padEnd(8)} batch ${String(spec.batch).padStart(3)}`;
      try {
        const { rate, minimal, floor, bulk, vsMinimal, vsDriver, vsBulk } = await runCase(startServer, backend, spec);
        const verdict = (ok) => (ok ? 'met' : 'NOT met');
        const vsAnchor = anchor[spec.batch] ? rate / anchor[spec.batch] : null;
        const anchorPart =
          vsAnchor === null
            ? 'anchor not measured'
            : `${vsAnchor.toFixed(0)}x anchor (target ${TARGET_VS_ANCHOR}x: ${verdict(vsAnchor >= TARGET_VS_ANCHOR)})`;
        const minimalTarget = TARGET_VS_MINIMAL[spec.batch];
        const driverTarget = TARGET_VS_DRIVER[`${backend}:${spec.batch}`];
        const driverPart = driverTarget ? `target ${driverTarget}: ${verdict(vsDriver >= driverTarget)}` : 'reported';
        console.log(
          `${label}: ${Math.round(rate)} records/s | minimal node:http ${Math.round(minimal)}/s, ratio ${vsMinimal.toFixed(2)} ` +
            `(target ${minimalTarget}: ${verdict(vsMinimal >= minimalTarget)}) | driver per batch ${Math.round(floor)}/s, ` +
            `ratio ${vsDriver.toFixed(2)} (${driverPart}) | bulk floor (${backend === 'sqlite' ? 'one statement, a transaction per round' : 'COPY'}) ` +
            `${Math.round(bulk)}/s, ratio ${vsBulk.toFixed(2)} (reported) | ${anchorPart}`,
        );
        if (
          (gated[spec.batch] && vsAnchor < TARGET_VS_ANCHOR) ||
          vsMinimal < minimalTarget ||
          (driverTarget && vsDriver < driverTarget)
        )
          failed = true;
      } catch (error) {
        failed = true;
        console.log(`${label}: FAILED ${error.message}`);
      }
    }
  }
  process.exit(failed ? 1 : 0);
}

await main();
