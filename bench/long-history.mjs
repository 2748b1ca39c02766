// Long-history benchmark (issue 32): one device with 50 million stored records (a fix a second for
// about two and a half years), its whole history opened on the dashboard's map through the track
// tiles (GET /api/dashboard/devices/:id/track-tiles/:z/:x/:y) at five zoom levels, each view then
// panned twice, on SQLite and PostgreSQL, through the BUILT server over real HTTP. A view is every
// tile a 1440 x 900 map shows, fetched six at a time as a browser does; its time is from the first
// request to the last answer. Target: every view within 0.2 s of server CPU: the server process's
// (every thread; the server runs in a process of its own, the client fetching the tiles in this
// one) plus, on PostgreSQL, the CPU its queries took in the database's backends
// (bench/lib/backend-cpu.mjs). Until session 23 the server ran in this process and its CPU counted
// the client's too: on a machine half as fast the PostgreSQL views at zoom 4 read 220-340 ms
// against 140-180 ms wall. Also timed: a range with edges inside hours
// (its partial hours are read from the records).
//
// The records are generated straight into the database in bulk (bench/lib/long-history-fill.mjs)
// and kept between runs (bench/lib/long-history-cache.mjs: a SQLite file under the temp directory
// and a PostgreSQL schema, about 8 GB each at 50 million); the pyramid is built once after the fill
// and kept with them. Fill and build run in a process of their own (bench/lib/long-history-prepare.mjs).
// WAYPOST_BENCH_HISTORY_RECORDS=N sets the size (default 50,000,000);
// WAYPOST_BENCH_HISTORY_DROP=1 removes the cached databases after the run;
// WAYPOST_BENCH_HISTORY_ONLY=sqlite (or postgres) runs one database.
// Run after `npm run build`.
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cacheNames } from './lib/long-history-cache.mjs';
import { DEVICE, START, lastTime } from './lib/long-history-fill.mjs';
import { backendCpuProbe } from './lib/backend-cpu.mjs';
import { PG_URL } from './lib/pg-schema.mjs';
import { processCpuMs } from './lib/process-cpu.mjs';
import { startServerProcess } from './lib/server-process-client.mjs';

const RECORDS = Number(process.env.WAYPOST_BENCH_HISTORY_RECORDS ?? 50_000_000);
const records = RECORDS.toLocaleString('en');
/** WAYPOST_BENCH_HISTORY_ONLY=sqlite or postgres runs one database. */
const ONLY = process.env.WAYPOST_BENCH_HISTORY_ONLY ?? '';
const TOKEN = 'bench-admin';
const TARGET_MS = 200;
const HOUR_MS = 3_600_000;
const WIDTH = 1440;
const HEIGHT = 900;
const PARALLEL = 6;
const ZOOMS = [4, 8, 12, 14, 16];
const CENTRE = { lat: 48.1, lon: 11.5 };
const log = (line) => console.log(line);

function worldPixel(lat, lon, z) {
  const size = 256 * 2 ** z;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [((lon + 180) / 360) * size, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size];
}

/** The tiles a WIDTH x HEIGHT map centred on world pixel (cx, cy) at zoom z shows. */
function viewTiles(z, cx, cy) {
  const tiles = [];
  const max = 2 ** z - 1;
  const [x0, x1] = [Math.floor((cx - WIDTH / 2) / 256), Math.floor((cx + WIDTH / 2) / 256)];
  const [y0, y1] = [Math.floor((cy - HEIGHT / 2) / 256), Math.floor((cy + HEIGHT / 2) / 256)];
  for (let x = Math.max(0, x0); x <= Math.min(max, x1); x++)
    for (let y = Math.max(0, y0); y <= Math.min(max, y1); y++) tiles.push([x, y]);
  return tiles;
}

/** A view's tiles fetched as a browser would; its CPU is the server process's plus the database backends' (`database`, PostgreSQL). */
async function fetchView(server, z, tiles, query, database) {
  const cpu = processCpuMs(server.pid);
  const databaseBefore = database ? await database.cpuMs() : 0;
  const started = performance.now();
  let segments = 0;
  let next = 0;
  const worker = async () => {
    while (next < tiles.length) {
      const [x, y] = tiles[next++];
      const response = await fetch(`${server.url}/api/dashboard/devices/${DEVICE}/track-tiles/${z}/${x}/${y}${query}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if (!response.ok) throw new Error(`tile ${z}/${x}/${y} answered ${response.status}: ${await response.text()}`);
      segments += (await response.json()).segments.length / 4;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const ms = performance.now() - started;
  const serverMs = processCpuMs(server.pid) - cpu;
  const databaseMs = database ? (await database.cpuMs()) - databaseBefore : 0;
  return { ms, cpuMs: serverMs + databaseMs, databaseMs, segments, tiles: tiles.length };
}

/** Each zoom: the view opened on the loop, then panned half a screen east, then half a screen south. */
async function views(server, query, database) {
  const results = [];
  for (const z of ZOOMS) {
    const [cx, cy] = worldPixel(CENTRE.lat, CENTRE.lon, z);
    const steps = [
      ['open', cx, cy],
      ['pan east', cx + WIDTH / 2, cy],
      ['pan south', cx + WIDTH / 2, cy + HEIGHT / 2],
    ];
    for (const [what, x, y] of steps)
      results.push({ z, what, ...(await fetchView(server, z, viewTiles(z, x, y), query, database)) });
  }
  return results;
}

/**
 * The history (generated unless cached), migrations and the pyramid, in a process of its own
 * (bench/lib/long-history-prepare.mjs): none of that work's heap is left to the measuring process.
 */
function prepare(name, args) {
  const script = fileURLToPath(new URL('./lib/long-history-prepare.mjs', import.meta.url));
  const output = execFileSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const prepared = JSON.parse(output);
  if (prepared.generatedMs > 0)
    log(`${name}: ${records} records generated in ${(prepared.generatedMs / 1000).toFixed(0)} s`);
  if (prepared.rebuilt > 0)
    log(
      `${name}: pyramid built: ${prepared.rebuilt.toLocaleString('en')} buckets in ${(prepared.ms / 1000).toFixed(1)} s`,
    );
  else log(`${name}: pyramid cached with the records`);
  return prepared;
}

/** The application name the server's PostgreSQL connections carry, so their backends' CPU is counted. */
const APPLICATION = 'waypost-long-history';

async function runCase(name, options) {
  const serverProcess = startServerProcess({ adminToken: TOKEN, mapStyle: null, ...options });
  const server = { pid: serverProcess.pid, url: await serverProcess.start() };
  const database = options.databaseUrl ? await backendCpuProbe(PG_URL, APPLICATION) : null;
  let ok = true;
  try {
    // "All time", and a range in whole hours as the dashboard asks (track-tiles.js widens its ranges).
    const middle = Math.floor((START + (lastTime(RECORDS) - START) / 2) / HOUR_MS) * HOUR_MS;
    const ranges = [
      ['all time', ''],
      ['a year in whole hours', `?from=${START + 86_400_000}&to=${middle - 1}`],
    ];
    for (const [label, query] of ranges) {
      await views(server, query); // warm-up: caches and JIT, as a dashboard in use would have them
      for (const r of await views(server, query, database)) {
        const pass = r.cpuMs <= TARGET_MS;
        ok &&= pass;
        log(
          `${name}: ${label}, zoom ${String(r.z).padStart(2)} ${r.what.padEnd(9)}: ${r.cpuMs.toFixed(0).padStart(4)} ms CPU` +
            (database ? ` (database ${r.databaseMs.toFixed(0)})` : '') +
            `, ` +
            `${r.ms.toFixed(0).padStart(4)} ms wall, ${r.tiles} tiles, ${r.segments.toLocaleString('en')} segments  ${pass ? 'PASS' : 'FAIL'}`,
        );
      }
    }
    // For the record, not a target: a range whose ends fall inside hours reads those two partial
    // hours from the records in every tile (up to 7,200 positions each here).
    const odd = `?from=${START + 86_400_000 + 17 * 60_000}&to=${middle + 3 * 60_000}`;
    await views(server, odd);
    const r = (await views(server, odd, database)).find((v) => v.z === 12 && v.what === 'open');
    log(`${name}: (report) ends inside hours, zoom 12 open: ${r.cpuMs.toFixed(0)} ms CPU, ${r.ms.toFixed(0)} ms wall`);
  } finally {
    await database?.close();
    await serverProcess.close();
  }
  return ok;
}

log(`long-history: one device with ${records} records, views of ${WIDTH} x ${HEIGHT}, target ${TARGET_MS} ms each`);
let ok = true;
if (ONLY !== 'postgres') {
  const { file } = prepare('SQLite', ['sqlite', String(RECORDS)]);
  ok = (await runCase('SQLite', { database: file })) && ok;
}
if (ONLY !== 'sqlite') {
  const { schema } = prepare('PostgreSQL', ['postgres', PG_URL, String(RECORDS)]);
  const url = new URL(PG_URL);
  url.searchParams.set('application_name', APPLICATION);
  ok = (await runCase('PostgreSQL', { databaseUrl: url.toString(), schema })) && ok;
}
if (process.env.WAYPOST_BENCH_HISTORY_DROP === '1') {
  const { dir, schema } = cacheNames(RECORDS);
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
log(ok ? 'long-history: every target met' : 'long-history: missed a target');
process.exit(ok ? 0 : 1);
