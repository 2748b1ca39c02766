/* global bench */
// Browser: enqueue and drain rates of @waypost/browser in Chromium (Debian's /usr/bin/chromium via
// playwright-core) against bare IndexedDB floors on the same storage in the same run, alternating
// rounds. Page and sink share one origin on 127.0.0.1 (a secure context). See BENCHMARKS.md.
// Targets: enqueue >= 0.4 x floor, drain >= 0.4 x floor (see BENCHMARKS.md for why these and not more).
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { median, reportRatio } from './lib/report.mjs';

const ENQUEUE = { records: 2_000, warmup: 200 };
const DRAIN = { records: 10_000, batch: 500 };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGETS = { enqueue: 0.4, drain: 0.4 };

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
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

const server = http.createServer((req, res) => {
  if (req.url === '/sink') {
    req.resume();
    req.on('end', () => (res.writeHead(200, { 'content-type': 'application/json' }), res.end('{}')));
    return;
  }
  res.writeHead(200, { 'content-type': req.url === '/bench.js' ? 'text/javascript' : 'text/html' });
  res.end(req.url === '/bench.js' ? script : '<!doctype html><script type="module" src="/bench.js"></script>');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
let pass = true;
try {
  const page = await browser.newPage();
  await page.goto(origin);
  await page.waitForFunction(() => 'bench' in globalThis);
  const rates = { floorEnqueue: [], sdkEnqueue: [], floorDrain: [], sdkDrain: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rates.floorEnqueue.push(await page.evaluate(({ records, warmup }) => bench.floorEnqueue(records, warmup), ENQUEUE));
    rates.sdkEnqueue.push(await page.evaluate(({ records, warmup }) => bench.sdkEnqueue(records, warmup), ENQUEUE));
    const drain = { url: `${origin}/sink`, ...DRAIN };
    rates.floorDrain.push(
      await page.evaluate(({ url, records, batch }) => bench.floorDrain(url, records, batch), drain),
    );
    rates.sdkDrain.push(await page.evaluate(({ url, records, batch }) => bench.sdkDrain(url, records, batch), drain));
  }
  const runs = (list) => list.map(Math.round).join(', ');
  console.log(
    `browser: Chromium ${browser.version()}, IndexedDB, ${ROUNDS} alternating rounds; enqueue ${ENQUEUE.records} records ` +
      `(floor ${runs(rates.floorEnqueue)}; sdk ${runs(rates.sdkEnqueue)}), drain ${DRAIN.records} in batches of ${DRAIN.batch} ` +
      `(floor ${runs(rates.floorDrain)}; sdk ${runs(rates.sdkDrain)}) rec/s, medians compared`,
  );
  pass =
    reportRatio(
      'browser',
      'enqueue recordLocation',
      median(rates.sdkEnqueue),
      median(rates.floorEnqueue),
      TARGETS.enqueue,
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
