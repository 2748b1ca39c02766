/* global bench */
// Browser: enqueue and drain rates of @waypost/browser in Chromium (Debian's /usr/bin/chromium via
// playwright-core) against bare IndexedDB floors on the same storage in the same run, alternating
// rounds. Page and sink share one origin on 127.0.0.1 (a secure context). See BENCHMARKS.md.
// Targets: enqueue >= 0.8 x floor (issue 43: a numbered insert is one add in one transaction, as
// the floor's), judged on the median of the rounds' own ratios (each round interleaves both sides;
// IndexedDB's pace drifts between rounds by more than the SDK's own work), drain >= 0.5 x floor
// (see BENCHMARKS.md for why these and not more).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launchChromium } from '../scripts/lib/chromium.mjs';
import { median, reportRatio } from './lib/report.mjs';

// Enqueue: floor and SDK alternate every 50 records within a round (see browser-page.mjs).
const ENQUEUE = { records: 2_000, warmup: 200, chunk: 50 };
const DRAIN = { records: 10_000, batch: 500 };
// SQLite-wasm commits about 50 records/s on OPFS: fewer records give the same rate in less time.
const SQLITE_ENQUEUE = { records: 300 };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TARGETS = { enqueue: 0.8, drain: 0.5 };

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const SQLITE_VERSION = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/package.json'), 'utf8'),
).version;
const script = (
  await build({
    entryPoints: [here('./lib/browser-page.mjs')],
    bundle: true,
    format: 'esm',
    write: false,
    alias: { '@waypost/browser': here('../packages/browser/dist/waypost-browser.js') },
    logLevel: 'warning',
  })
).outputFiles[0].text;

const SQLITE_DIR = join(
  dirname(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/package.json')),
  'sqlite-wasm',
  'jswasm',
);
const FILES = {
  '/bench.js': ['text/javascript', script],
  '/': ['text/html', '<!doctype html><script type="module" src="/bench.js"></script>'],
  '/sqlite-wasm-worker.mjs': ['text/javascript', readFileSync(here('./lib/sqlite-wasm-worker.mjs'))],
  '/default-record.mjs': ['text/javascript', readFileSync(here('./lib/default-record.mjs'))],
  '/sqlite/sqlite3.mjs': ['text/javascript', readFileSync(join(SQLITE_DIR, 'sqlite3.mjs'))],
  '/sqlite/sqlite3.wasm': ['application/wasm', readFileSync(join(SQLITE_DIR, 'sqlite3.wasm'))],
  '/sqlite/sqlite3-opfs-async-proxy.js': [
    'text/javascript',
    readFileSync(join(SQLITE_DIR, 'sqlite3-opfs-async-proxy.js')),
  ],
};

const server = http.createServer((req, res) => {
  if (req.url === '/sink') {
    req.resume();
    req.on('end', () => (res.writeHead(200, { 'content-type': 'application/json' }), res.end('{}')));
    return;
  }
  const file = FILES[req.url.split('?')[0]];
  if (!file) return res.writeHead(404).end();
  // Cross-origin isolation: SQLite-wasm's opfs VFS needs SharedArrayBuffer and Atomics.wait.
  res.writeHead(200, {
    'content-type': file[0],
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  });
  res.end(file[1]);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await launchChromium();
let pass = true;
try {
  const page = await browser.newPage();
  await page.goto(origin);
  await page.waitForFunction(() => 'bench' in globalThis);
  const rates = {
    floorEnqueue: [],
    sdkEnqueue: [],
    enqueueRatio: [],
    floorDrain: [],
    sdkDrain: [],
    sqliteEnqueue: [],
    sqliteDrain: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    const enqueue = await page.evaluate(
      ({ records, warmup, chunk }) => bench.enqueueRound(records, warmup, chunk),
      ENQUEUE,
    );
    rates.floorEnqueue.push(enqueue.floor);
    rates.sdkEnqueue.push(enqueue.sdk);
    rates.enqueueRatio.push(enqueue.sdk / enqueue.floor);
    const drain = { url: `${origin}/sink`, ...DRAIN };
    rates.floorDrain.push(
      await page.evaluate(({ url, records, batch }) => bench.floorDrain(url, records, batch), drain),
    );
    rates.sdkDrain.push(await page.evaluate(({ url, records, batch }) => bench.sdkDrain(url, records, batch), drain));
    rates.sqliteEnqueue.push(
      await page.evaluate(({ records }) => bench.sqliteWasm({ task: 'enqueue', records }), SQLITE_ENQUEUE),
    );
    rates.sqliteDrain.push(await page.evaluate((task) => bench.sqliteWasm({ task: 'drain', ...task }), drain));
  }
  const runs = (list) => list.map(Math.round).join(', ');
  console.log(
    `browser: Chromium ${browser.version()}, IndexedDB, ${ROUNDS} alternating rounds; enqueue ${ENQUEUE.records} records ` +
      `interleaved by ${ENQUEUE.chunk} ` +
      `(floor ${runs(rates.floorEnqueue)}; sdk ${runs(rates.sdkEnqueue)}; ` +
      `the rounds' ratios ${rates.enqueueRatio.map((r) => r.toFixed(2)).join(', ')}), drain ${DRAIN.records} in batches of ${DRAIN.batch} ` +
      `(floor ${runs(rates.floorDrain)}; sdk ${runs(rates.sdkDrain)}) rec/s; enqueue judged on the rounds' ratios' median, drain on the medians'`,
  );
  console.log(
    `browser: SQLite-wasm ${SQLITE_VERSION}, opfs VFS in a worker, bare loops: enqueue ${runs(rates.sqliteEnqueue)}, ` +
      `drain ${runs(rates.sqliteDrain)} rec/s`,
  );
  const note = 'bare SQLite-wasm loop vs the bare IndexedDB loop';
  reportRatio(
    'browser',
    'SQLite-wasm OPFS enqueue',
    median(rates.sqliteEnqueue),
    median(rates.floorEnqueue),
    undefined,
    note,
  );
  reportRatio(
    'browser',
    'SQLite-wasm OPFS drain',
    median(rates.sqliteDrain),
    median(rates.floorDrain),
    undefined,
    note,
  );
  pass =
    reportRatio(
      'browser',
      'enqueue recordLocation',
      median(rates.sdkEnqueue),
      median(rates.floorEnqueue),
      TARGETS.enqueue,
      '',
      // Each round interleaves the two sides: its own ratio compares like with like (as ingest.mjs).
      median(rates.enqueueRatio),
    ) && pass;
  pass =
    reportRatio(
      'browser',
      'drain (automatic upload)',
      median(rates.sdkDrain),
      median(rates.floorDrain),
      TARGETS.drain,
    ) && pass;
} finally {
  await browser.close();
  server.close();
}
process.exitCode = pass ? 0 : 1;
