// Dashboard track benchmark: one device with 1,000,000 stored records, its whole history asked for
// (GET /api/dashboard/devices/:id/track, all time) at several zoom levels, through the BUILT server
// over real HTTP, on SQLite and on PostgreSQL. The floor, measured in the same run, is the driver
// alone reading the same positions (SELECT recorded_at, latitude, longitude ... ORDER BY time):
// what any answer must at least do. Targets: every answer carries at most MAX_TRACK_POINTS points,
// and takes at most 4 x the floor (reading, trip splitting, simplification and JSON together). The
// trips and stops table (GET .../trips, every position measured) has the same target.
// Run after `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startServer } from '../packages/server/dist/index.js';
import { MAX_TRACK_POINTS } from '../packages/server/dist/tracks/simplify-track.js';

const PG_URL =
  process.env.WAYPOST_TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RECORDS = Number(process.env.WAYPOST_BENCH_TRACK_RECORDS ?? 1_000_000);
const DEVICE = 'bench-track';
const TOKEN = 'bench-admin';
const ZOOMS = [3, 10, 16];
const RUNS = 3;
const TARGET_VS_FLOOR = 4;
const START = Date.UTC(2024, 0, 1);
/** One fix a second; a trip is an hour of driving, then half an hour parked (not recording). */
const TRIP_S = 3600;
const PAUSE_MS = 30 * 60_000;

/** The i-th fix: time, and a position driving round a 2 km-radius loop near Munich. */
function fix(i) {
  const trip = Math.floor(i / TRIP_S);
  const t = START + i * 1000 + trip * PAUSE_MS;
  const angle = ((i % TRIP_S) / TRIP_S) * 2 * Math.PI + trip;
  return { t, lat: 48.1 + 0.018 * Math.sin(angle), lon: 11.5 + 0.027 * Math.cos(angle) };
}

const recordJson = (i, { t, lat, lon }) =>
  JSON.stringify({
    uuid: `r-${i}`,
    timestamp: new Date(t).toISOString(),
    is_moving: true,
    odometer: i * 10,
    coords: { latitude: lat, longitude: lon, accuracy: 5, speed: 10, heading: 90, altitude: 520 },
    activity: { type: 'in_vehicle', confidence: 100 },
    battery: { level: 0.8, is_charging: false },
    extras: {},
  });

async function fillSqlite(file) {
  const db = new Database(file);
  db.prepare(`INSERT INTO devices (id, created_at, records) VALUES (?, ?, ?)`).run(DEVICE, START, RECORDS);
  const insert = db.prepare(
    `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const chunk = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const f = fix(i);
      insert.run(DEVICE, `r-${i}`, f.t, f.lat, f.lon, f.t, recordJson(i, f));
    }
  });
  for (let i = 0; i < RECORDS; i += 50_000) chunk(i, Math.min(RECORDS, i + 50_000));
  db.close();
}

async function fillPostgres(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`SET search_path = "${schema}"`);
  await client.query(`INSERT INTO devices (id, created_at, records) VALUES ($1, $2, $3)`, [DEVICE, START, RECORDS]);
  const BATCH = 5000;
  for (let i = 0; i < RECORDS; i += BATCH) {
    const n = Math.min(BATCH, RECORDS - i);
    const cols = { uuid: [], t: [], lat: [], lon: [], record: [] };
    for (let j = i; j < i + n; j++) {
      const f = fix(j);
      cols.uuid.push(`r-${j}`);
      cols.t.push(f.t);
      cols.lat.push(f.lat);
      cols.lon.push(f.lon);
      cols.record.push(recordJson(j, f));
    }
    await client.query(
      `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record)
       SELECT $1, u, t, la, lo, t, r FROM unnest($2::text[], $3::bigint[], $4::float8[], $5::float8[], $6::text[]) AS x(u, t, la, lo, r)`,
      [DEVICE, cols.uuid, cols.t, cols.lat, cols.lon, cols.record],
    );
  }
  await client.query('ANALYZE locations');
  await client.end();
}

async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

async function floorSqlite(file) {
  const db = new Database(file, { readonly: true });
  const statement = db.prepare(
    `SELECT recorded_at AS t, latitude AS lat, longitude AS lon FROM locations WHERE device_id = ? AND latitude IS NOT NULL ORDER BY recorded_at DESC, id DESC LIMIT ?`,
  );
  const { ms, value } = await timed(async () => statement.all(DEVICE, RECORDS));
  db.close();
  return { ms, rows: value.length };
}

async function floorPostgres(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`SET search_path = "${schema}"`);
  const { ms, value } = await timed(() =>
    client.query(
      `SELECT recorded_at AS t, latitude AS lat, longitude AS lon FROM locations WHERE device_id = $1 AND latitude IS NOT NULL ORDER BY recorded_at DESC, id DESC LIMIT $2`,
      [DEVICE, RECORDS],
    ),
  );
  await client.end();
  return { ms, rows: value.rows.length };
}

async function measure(server) {
  const results = [];
  for (const zoom of ZOOMS) {
    let best = Infinity;
    let body = null;
    for (let run = 0; run < RUNS; run++) {
      const { ms, value } = await timed(async () => {
        const response = await fetch(`${server.url}/api/dashboard/devices/${DEVICE}/track?zoom=${zoom}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        if (!response.ok) throw new Error(`track answered ${response.status}: ${await response.text()}`);
        return response.json();
      });
      best = Math.min(best, ms);
      body = value;
    }
    const points = body.trips.reduce((n, trip) => n + trip.length, 0);
    results.push({ zoom, ms: best, points, trips: body.trips.length, positions: body.positions });
  }
  // The trips and stops table the dashboard loads beside the track: every position measured.
  let best = Infinity;
  let body = null;
  for (let run = 0; run < RUNS; run++) {
    const { ms, value } = await timed(async () => {
      const response = await fetch(`${server.url}/api/dashboard/devices/${DEVICE}/trips`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if (!response.ok) throw new Error(`trips answered ${response.status}: ${await response.text()}`);
      return response.json();
    });
    best = Math.min(best, ms);
    body = value;
  }
  const measured = body.trips.reduce((n, trip) => n + trip.points, 0);
  results.push({
    zoom: 'trips',
    ms: best,
    points: 0,
    trips: body.trips.length,
    positions: measured,
    stops: body.stops.length,
  });
  return results;
}

async function runCase(name, options, fill, floor) {
  // Start once to create the schema, fill it directly, then start again to measure.
  await (await startServer({ port: 0, adminToken: TOKEN, ...options })).close();
  const filled = await timed(fill);
  console.log(`${name}: ${RECORDS.toLocaleString('en')} records stored in ${(filled.ms / 1000).toFixed(1)} s`);
  const server = await startServer({ port: 0, adminToken: TOKEN, ...options });
  let ok = true;
  try {
    await measure(server); // warm-up: caches and JIT, as a dashboard in use would have them
    const results = await measure(server);
    let floorMs = Infinity;
    for (let run = 0; run < RUNS; run++) floorMs = Math.min(floorMs, (await floor()).ms);
    console.log(`${name}: floor (driver reads ${RECORDS.toLocaleString('en')} positions): ${floorMs.toFixed(0)} ms`);
    for (const r of results) {
      const ratio = r.ms / floorMs;
      const pass = r.points <= MAX_TRACK_POINTS && ratio <= TARGET_VS_FLOOR && r.positions === RECORDS;
      ok &&= pass;
      const what =
        r.zoom === 'trips'
          ? `trips table: ${r.ms.toFixed(0)} ms, ${r.trips} trips and ${r.stops} stops over ${r.positions.toLocaleString('en')} positions`
          : `zoom ${String(r.zoom).padStart(2)}: ${r.ms.toFixed(0)} ms, ${r.trips} trips, ${r.points} points (of ${r.positions.toLocaleString('en')})`;
      console.log(`${name}: ${what}, ${ratio.toFixed(2)} x floor  ${pass ? 'PASS' : 'FAIL'}`);
    }
  } finally {
    await server.close();
  }
  return ok;
}

const dir = mkdtempSync(join(tmpdir(), 'waypost-bench-track-'));
const file = join(dir, 'server.db');
const schema = `bench_track_${process.pid}`;
let ok = true;
try {
  ok &&= await runCase(
    'SQLite',
    { database: file },
    () => fillSqlite(file),
    () => floorSqlite(file),
  );
  ok &&= await runCase(
    'PostgreSQL',
    { databaseUrl: PG_URL, schema },
    () => fillPostgres(schema),
    () => floorPostgres(schema),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
console.log(ok ? 'dashboard-track: every target met' : 'dashboard-track: missed a target');
process.exit(ok ? 0 : 1);
