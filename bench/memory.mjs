// Memory: the peak RSS of a process draining 1M queued records against one draining 100k
// (batchSync, maxBatchSize 1000), each in a fresh child process. The upload loop must stream the
// queue from SQLite batch by batch: the 1M peak within 1.3x + 30 MB of the 100k peak.
//
// The drain is the automatic upload (autoSync, triggered by a connectivity change 'none' -> 'wifi'),
// not sync(): sync() resolves with every delivered record, so it holds them all by contract.
// The queue is filled directly with better-sqlite3 in one transaction (rows rendered like the
// SDK's), since 1M insertLocation() calls would take most of a minute; the SDK then opens it.
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { configureConnection, createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { migrate } from '../packages/node/dist/sqlite/migrations.js';
import { defaultRecord, movingFix } from './lib/default-record.mjs';
import { formatMb, formatRate, scratchDir } from './lib/report.mjs';
import { startSink } from './lib/sink-server.mjs';

const SIZES = [100_000, 1_000_000];
const RATIO = 1.3;
const MARGIN_BYTES = 30 * 1024 * 1024;
const SAMPLE_MS = 50;
const DRAIN_DEADLINE_MS = 5 * 60_000;

/** The kernel's high-water mark of this process's resident set (VmHWM), in bytes. */
function vmHwm() {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

function fillQueue(file, records) {
  const db = new Database(file);
  configureConnection(db, 'NORMAL');
  migrate(db);
  const insert = db.prepare('INSERT INTO locations (uuid, created_at, json) VALUES (?, ?, ?)');
  const now = Date.now();
  const timestamp = new Date(now).toISOString();
  db.transaction(() => {
    for (let i = 0; i < records; i++) {
      const uuid = randomUUID();
      const fix = movingFix(i % 1000);
      const record = defaultRecord(fix, { uuid, timestamp, odometer: Math.round(i * 14) / 10 });
      insert.run(uuid, now, JSON.stringify(record));
    }
  })();
  db.close();
}

/** In the child: open the filled queue, let the automatic upload drain it, report the peak RSS. */
async function drainChild(file, url, records) {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), SAMPLE_MS);
  const network = new ManualNetwork('none');
  const bg = await createBackgroundGeolocation({ database: file, network });
  await bg.ready({ http: { url, autoSync: true, batchSync: true, maxBatchSize: 1000 } });
  const opened = process.memoryUsage.rss();
  const started = performance.now();
  network.set('wifi');
  let left = records;
  while (left > 0 && performance.now() - started < DRAIN_DEADLINE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = await bg.getCount();
  }
  const seconds = (performance.now() - started) / 1000;
  await bg.close();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  process.send({ left, seconds, peak, hwm: vmHwm(), opened });
}

function runChild(file, url, records) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'drain', file, url, String(records)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result;
    child.on('message', (message) => (result = message));
    child.on('error', reject);
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`memory: the drain child exited (${code}) without a result`)),
    );
  });
}

async function main() {
  const dir = scratchDir('memory');
  const sink = await startSink();
  const results = [];
  try {
    for (const records of SIZES) {
      const file = join(dir, `queue-${records}.db`);
      const filling = performance.now();
      fillQueue(file, records);
      const fillSeconds = (performance.now() - filling) / 1000;
      const result = await runChild(file, sink.url, records);
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      if (result.left !== 0) throw new Error(`memory: ${result.left} of ${records} records were not delivered in time`);
      const peak = Math.max(result.peak, result.hwm);
      results.push(peak);
      console.log(
        `memory: ${records} records: filled in ${fillSeconds.toFixed(1)} s, drained in ${result.seconds.toFixed(1)} s ` +
          `(${formatRate(records / result.seconds)}); RSS after open ${formatMb(result.opened)}, ` +
          `peak ${formatMb(result.peak)} sampled, VmHWM ${formatMb(result.hwm)}`,
      );
    }
  } finally {
    await sink.close();
  }
  const [small, large] = results;
  const limit = small * RATIO + MARGIN_BYTES;
  const pass = large <= limit;
  console.log(
    `memory: peak RSS draining 1M ${formatMb(large)} vs 100k ${formatMb(small)} -> ratio ${(large / small).toFixed(2)} ` +
      `(target <= ${RATIO}x + ${formatMb(MARGIN_BYTES)} = ${formatMb(limit)}) ${pass ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = pass ? 0 : 1;
}

if (process.argv[2] === 'drain') {
  await drainChild(process.argv[3], process.argv[4], Number(process.argv[5]));
} else {
  await main();
}
