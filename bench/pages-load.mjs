// The pages in TypeScript (issue 42) against the plain JavaScript they replace: the dashboard's
// compressed script download and its time to a first drawn fleet, in one run on one server (the
// BUILT server on SQLite, Debian's Chromium). "Before" is the same page with every script the last
// plain-JavaScript commit had (git show of its public/ files) answered in place of the built one;
// "after" is the build as served. Targets: no more compressed bytes, and the median time to a
// drawn fleet within TIME_TARGET x the plain pages' (run to run noise, measured in the same run).
// Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { launchChromium } from '../scripts/lib/chromium.mjs';
import { startServer } from '../packages/server/dist/index.js';
import { median, scratchDir } from './lib/report.mjs';

const DEVICES = 200;
const TOKEN = 'bench-admin-token-0123456789';
const ROUNDS = Number(process.env.WAYPOST_BENCH_ROUNDS ?? 5);
const TIME_TARGET = 1.1;

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 << 20 });
// The commit before the one that brought in the pages' build: the pages as plain JavaScript.
const added = git('log', '--diff-filter=A', '--format=%H', '-1', '--', 'packages/server/build-pages.mjs').trim();
const base = `${added}^`;
const PLAIN = new Map();
for (const path of git('ls-tree', '-r', '--name-only', base, 'packages/server/public').split('\n')) {
  const served = /^packages\/server\/public\/((assets|track)\/[\w-]+\.js)$/.exec(path);
  if (served) PLAIN.set(`/${served[1]}`, git('show', `${base}:${path}`));
}

const dir = scratchDir('pages-load');
const file = join(dir, 'pages.db');
const server = await startServer({ port: 0, database: file, adminToken: TOKEN });
{
  // Registered straight in the table: the page is what is measured, not the ingest.
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO devices (id, name, info, created_at, last_seen, status, records, last_latitude, last_longitude, last_recorded_at)
     VALUES (?, ?, '{}', ?, ?, 'active', 1, ?, ?, ?)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < DEVICES; i++) {
      const seen = now - i * 60_000;
      insert.run(`fleet-${i}`, `van ${i}`, seen, seen, 45.4 + (i % 20) * 0.01, -73.7 + Math.floor(i / 20) * 0.01, seen);
    }
  })();
  db.close();
}

/** One cold load: ms from navigation to the fleet drawn (its count and a marker), and gzip bytes of its scripts. */
async function load(browser, plain) {
  const context = await browser.newContext();
  await context.request.post(`${server.url}/api/session`, { data: { token: TOKEN } });
  const page = await context.newPage();
  await page.route(
    (u) => !['127.0.0.1', 'localhost'].includes(u.hostname) && /^https?:$/.test(u.protocol),
    (route) => route.abort('blockedbyclient'),
  );
  let bytes = 0;
  await page.route(/\/(assets|track)\/[\w-]+\.js$/, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const body = plain ? PLAIN.get(path) : await (await fetch(`${server.url}${path}`)).text();
    if (body === undefined) throw new Error(`no plain script for ${path}`);
    bytes += gzipSync(body).length;
    await route.fulfill({ body, contentType: 'text/javascript; charset=utf-8' });
  });
  const t0 = performance.now();
  await page.goto(`${server.url}/`);
  await page
    .locator('#device-count')
    .filter({ hasText: `${DEVICES} devices` })
    .waitFor({ timeout: 60_000 });
  await page.locator('.leaflet-marker-icon').first().waitFor({ timeout: 60_000 });
  const ms = performance.now() - t0;
  await context.close();
  return { ms, bytes };
}

const browser = await launchChromium();
let pass;
try {
  const runs = { plain: [], built: [] };
  await load(browser, false); // warm the server's caches once, for both alike
  for (let round = 0; round < ROUNDS; round++) {
    runs.plain.push(await load(browser, true));
    runs.built.push(await load(browser, false));
  }
  const bytes = { plain: runs.plain[0].bytes, built: runs.built[0].bytes };
  const sizeOk = bytes.built <= bytes.plain;
  console.log(
    `pages-load: dashboard scripts ${bytes.built} B gzip built vs ${bytes.plain} B plain JavaScript -> ratio ${(bytes.built / bytes.plain).toFixed(3)} (target <= 1) ${sizeOk ? 'PASS' : 'FAIL'}`,
  );
  const time = { plain: median(runs.plain.map((r) => r.ms)), built: median(runs.built.map((r) => r.ms)) };
  const ratio = time.built / time.plain;
  const timeOk = ratio <= TIME_TARGET;
  console.log(
    `pages-load: first drawn fleet (${DEVICES} devices) ${time.built.toFixed(0)} ms built vs ${time.plain.toFixed(0)} ms plain (medians of ${ROUNDS}) -> ratio ${ratio.toFixed(2)} (target <= ${TIME_TARGET}) ${timeOk ? 'PASS' : 'FAIL'}`,
  );
  pass = sizeOk && timeOk;
} finally {
  await browser.close();
  await server.close();
}
process.exit(pass ? 0 : 1);
