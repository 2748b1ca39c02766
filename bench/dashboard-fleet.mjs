// Dashboard fleet-list benchmark: 10,000 devices in the dashboard (the BUILT server on SQLite, Debian's
// Chromium), at a desktop and a phone size. The list is filtered by typing and scrolled end to end in
// steps; each step's time until the next painted frame is compared with the floor measured in the
// same page: a step that does nothing (two animation frames). Targets: the median step within
// TARGET_VS_FLOOR x the floor, and no step's own work (filtering and rendering rows, timed by the
// page) over STALL_MS (a stall you see). The unit test (dashboard-fleet.test.ts) checks what the list
// shows; its speed is measured here, not there. Run after `npm run build`.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BOTH_SIZES, launchChromium } from '../scripts/lib/chromium.mjs';
import { startServer } from '../packages/server/dist/index.js';
import { median, scratchDir } from './lib/report.mjs';

const DEVICES = 10_000;
const TOKEN = 'bench-admin-token-0123456789';
const ROUNDS = Number(process.env.WAYPOST_BENCH_ROUNDS ?? 3);
const STALL_MS = 250;
const TARGET_VS_FLOOR = 8;

/** In the page: each filter and scroll step's work and next-frame time, and idle frames (the floor). */
const MEASURE = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const list = document.getElementById('devices');
  const steps = { filter: [], scroll: [], idle: [] };
  const step = async (kind, act) => {
    const t0 = performance.now();
    act();
    await frame();
    steps[kind].push({ work: Number(list.dataset.flushMs) || 0, frame: performance.now() - t0 });
  };
  for (let i = 0; i < 10; i++) await step('idle', () => undefined);
  const search = document.getElementById('device-search');
  for (const text of ['f', 'fleet-09', 'fleet-0999', '']) {
    await step('filter', () => {
      search.value = text;
      search.dispatchEvent(new Event('input'));
    });
  }
  const scroller = document.getElementById('device-scroll');
  for (let i = 1; i <= 20; i++) await step('scroll', () => (scroller.scrollTop = (scroller.scrollHeight * i) / 20));
  return steps;
})()`;

const dir = scratchDir('dashboard-fleet');
const file = join(dir, 'fleet.db');
const server = await startServer({ port: 0, database: file, adminToken: TOKEN });
const url = server.url;
{
  // Registered straight in the table: the list is what is measured, not the ingest.
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO devices (id, name, info, created_at, last_seen, status, records, last_latitude, last_longitude, last_recorded_at)
     VALUES (?, ?, '{}', ?, ?, ?, 1, ?, ?, ?)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < DEVICES; i++) {
      const seen = now - i * 60_000;
      const where = [45.4 + (i % 100) * 0.003, -73.7 + Math.floor(i / 100) * 0.003];
      insert.run(
        `fleet-${String(i).padStart(5, '0')}`,
        `van ${i}`,
        seen,
        seen,
        i % 50 === 49 ? 'blocked' : 'active',
        ...where,
        seen,
      );
    }
  })();
  db.close();
}

const browser = await launchChromium();
let pass = true;
try {
  for (const [label, viewport] of BOTH_SIZES) {
    const rounds = { filter: [], scroll: [], idle: [], work: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.newPage({ viewport });
      // The default basemap is a public one: nothing leaves the machine in a benchmark.
      await page.route(
        (u) => !['127.0.0.1', 'localhost'].includes(u.hostname) && /^https?:$/.test(u.protocol),
        (route) => route.abort('blockedbyclient'),
      );
      await page.goto(`${url}/`);
      await page.fill('#token-input', TOKEN);
      await page.click('#login button[type=submit]');
      await page
        .locator('#device-count')
        .filter({ hasText: `${DEVICES} devices` })
        .waitFor({ timeout: 60_000 });
      const steps = await page.evaluate(MEASURE);
      for (const kind of ['filter', 'scroll', 'idle']) rounds[kind].push(median(steps[kind].map((s) => s.frame)));
      rounds.work.push(Math.max(...[...steps.filter, ...steps.scroll].map((s) => s.work)));
      await page.close();
    }
    const floor = median(rounds.idle);
    for (const kind of ['filter', 'scroll']) {
      const ratio = median(rounds[kind]) / floor;
      const ok = ratio <= TARGET_VS_FLOOR;
      pass &&= ok;
      console.log(
        `dashboard-fleet: ${label} ${kind} step, next frame ${median(rounds[kind]).toFixed(0)} ms (median) vs floor ${floor.toFixed(0)} ms (an idle frame) -> ratio ${ratio.toFixed(2)} (target <= ${TARGET_VS_FLOOR}) ${ok ? 'PASS' : 'FAIL'}`,
      );
    }
    const worst = median(rounds.work);
    const ok = worst < STALL_MS;
    pass &&= ok;
    console.log(
      `dashboard-fleet: ${label} the list's own work, worst step ${worst.toFixed(1)} ms (median of ${ROUNDS} rounds) (target < ${STALL_MS} ms) ${ok ? 'PASS' : 'FAIL'}`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(pass ? 0 : 1);
