// Latency: one recorded location until it is delivered (autoSync, threshold 0, loopback): the time
// from recordLocation() to the onHttp event that reports its uuid delivered (the record deleted).
// Floor, same run: a hand-written insert-POST-delete of the same record (better-sqlite3 on a table
// made by the same migration with the same pragmas, fetch POST of {"location": record}, DELETE by id).
// Both post to the same bare node:http sink in its own process. p50 and p99 are compared as
// ratios floor/SDK (1 = as fast as the floor). Target: p50 ratio >= 0.5 (the SDK's bookkeeping, log
// lines and scheduling at most double the floor's latency); p99 is reported.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { configureConnection, createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { migrate } from '../packages/node/dist/sqlite/migrations.js';
import { scratchDir } from './lib/report.mjs';
import { startSink } from './lib/sink-server.mjs';

const SAMPLES_PER_ROUND = 500;
const ROUNDS = 4;
const WARMUP = 200;
const TARGET_P50 = 0.5;
const dir = scratchDir('latency');
let fileCounter = 0;
const freshFile = () => join(dir, `l${fileCounter++}.db`);

const input = (i) => ({ latitude: 45.5 + i * 1e-7, longitude: -73.6 + i * 1e-7, accuracy: 5, speed: 1.2 });

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function openSdk(url) {
  const bg = await createBackgroundGeolocation({ database: freshFile(), network: new ManualNetwork('wifi') });
  await bg.ready({ http: { url, autoSync: true, autoSyncThreshold: 0 } });
  await bg.start();
  const waiting = new Map();
  bg.onHttp((event) => {
    if (!event.success) throw new Error(`latency: the SDK's upload failed with ${event.status}`);
    for (const uuid of event.uuids) waiting.get(uuid)?.();
  });
  return { bg, waiting };
}

async function sdkSamples(sdk, from, count) {
  const latencies = [];
  for (let i = from; i < from + count; i++) {
    const started = performance.now();
    let resolve;
    const delivered = new Promise((r) => (resolve = r));
    // The uuid is only known once recordLocation resolves; the upload may be done by then, in
    // which case the delivery was remembered in sdk.delivered.
    const location = await sdk.bg.recordLocation(input(i));
    if (sdk.delivered?.has(location.uuid)) resolve();
    sdk.waiting.set(location.uuid, resolve);
    await delivered;
    latencies.push(performance.now() - started);
    sdk.waiting.delete(location.uuid);
  }
  return latencies;
}

function openFloor() {
  const db = new Database(freshFile());
  configureConnection(db, 'NORMAL');
  migrate(db);
  return {
    db,
    insert: db.prepare('INSERT INTO locations (uuid, created_at, json) VALUES (?, ?, ?)'),
    remove: db.prepare('DELETE FROM locations WHERE id = ?'),
  };
}

async function floorSamples(floor, url, from, count) {
  const latencies = [];
  const headers = { 'content-type': 'application/json' };
  for (let i = from; i < from + count; i++) {
    const started = performance.now();
    const now = Date.now();
    const uuid = randomUUID();
    const json = JSON.stringify({
      uuid,
      timestamp: new Date(now).toISOString(),
      is_moving: false,
      odometer: 0,
      coords: { ...input(i), heading: -1, altitude: -1, altitude_accuracy: -1 },
      activity: { type: 'unknown', confidence: -1 },
      battery: { level: -1, is_charging: false },
      extras: {},
    });
    const { lastInsertRowid } = floor.insert.run(uuid, now, json);
    const response = await fetch(url, { method: 'POST', headers, body: `{"location":${json}}` });
    await response.text();
    if (!response.ok) throw new Error(`latency: the floor got HTTP ${response.status}`);
    floor.remove.run(lastInsertRowid);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const sink = await startSink();
let pass = true;
try {
  const sdk = await openSdk(sink.url);
  // Deliveries that beat recordLocation()'s own resolution are remembered here.
  sdk.delivered = new Set();
  sdk.bg.onHttp((event) => {
    for (const uuid of event.uuids) if (!sdk.waiting.has(uuid)) sdk.delivered.add(uuid);
  });
  const floor = openFloor();
  await sdkSamples(sdk, 0, WARMUP);
  await floorSamples(floor, sink.url, 0, WARMUP);
  const all = { sdk: [], floor: [] };
  // Interleaved rounds, so a busy neighbour slows both alike.
  for (let round = 0; round < ROUNDS; round++) {
    const from = WARMUP + round * SAMPLES_PER_ROUND;
    all.floor.push(...(await floorSamples(floor, sink.url, from, SAMPLES_PER_ROUND)));
    all.sdk.push(...(await sdkSamples(sdk, from, SAMPLES_PER_ROUND)));
    sdk.delivered.clear();
  }
  await sdk.bg.idle();
  const left = await sdk.bg.getCount();
  await sdk.bg.close();
  floor.db.close();
  if (left !== 0) throw new Error(`latency: ${left} records were left in the SDK's queue`);
  const ms = (value) => `${value.toFixed(2)} ms`;
  for (const p of [50, 99]) {
    const s = percentile(all.sdk, p);
    const f = percentile(all.floor, p);
    const ratio = f / s;
    const gated = p === 50;
    const ok = !gated || ratio >= TARGET_P50;
    pass = pass && ok;
    console.log(
      `latency: p${p} recorded -> delivered ${ms(s)} vs floor ${ms(f)} -> ratio ${ratio.toFixed(2)} ` +
        (gated ? `(target >= ${TARGET_P50}) ${ok ? 'PASS' : 'FAIL'}` : '(reported, no target)'),
    );
  }
  console.log(`latency: ${all.sdk.length} samples each, ${ROUNDS} interleaved rounds, after ${WARMUP} warm-up`);
} finally {
  await sink.close();
}
process.exitCode = pass ? 0 : 1;
