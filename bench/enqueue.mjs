// Enqueue: recordLocation() on a started SDK (default configuration, no url, a temp-file SQLite
// database with the default durability NORMAL) against the floor: a bare better-sqlite3 loop that
// renders the same record with JSON.stringify and inserts it, one transaction per record that also
// moves the record's sequence counter (the ledger's numbering must never repeat: the counter and
// the record are written together), into tables made by the same migration with the same pragmas
// (configureConnection).
// Target (DESIGN section 6): the SDK at >= 0.5 of the floor's rate.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { configureConnection, createBackgroundGeolocation } from '@waypost/node';
import { migrate } from '../packages/node/dist/sqlite/migrations.js';
import { defaultRecord, movingFix } from './lib/default-record.mjs';
import { median, reportRatio, scratchDir } from './lib/report.mjs';

const RECORDS = 30_000;
const WARMUP = 3_000;
const ROUNDS = 5;
const TARGET = 0.5;
const dir = scratchDir('enqueue');
let fileCounter = 0;
const freshFile = () => join(dir, `q${fileCounter++}.db`);
/** The queue's numbering epoch: the SDK reads it once when it opens, so the floor holds it the same way. */
const EPOCH = randomUUID().replaceAll('-', '').slice(0, 24);

/** The SDK's default record, as the floor renders it: same keys, same order, same values. */
function floorRecord(i, now) {
  const record = defaultRecord(movingFix(i), {
    uuid: randomUUID(),
    timestamp: new Date(now).toISOString(),
    odometer: Math.round(i * 1.4 * 10) / 10,
  });
  record.sequence = i + 1; // assigned, not spread: no second object in the timed loop
  record.sequence_epoch = EPOCH;
  return record;
}

function floorRun() {
  const db = new Database(freshFile());
  configureConnection(db, 'NORMAL');
  migrate(db);
  const insert = db.prepare('INSERT INTO locations (uuid, created_at, json) VALUES (?, ?, ?)');
  const counter = db.prepare(
    `INSERT INTO kv (key, value) VALUES ('records.sequence', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const insertNumbered = db.transaction((i, now) => {
    const record = floorRecord(i, now);
    counter.run(String(record.sequence));
    insert.run(record.uuid, now, JSON.stringify(record));
  });
  const loop = (from, to) => {
    for (let i = from; i < to; i++) insertNumbered(i, Date.now());
  };
  loop(0, WARMUP);
  const started = performance.now();
  loop(WARMUP, WARMUP + RECORDS);
  const rate = RECORDS / ((performance.now() - started) / 1000);
  const sample = db.prepare('SELECT json FROM locations ORDER BY id DESC LIMIT 1').pluck().get();
  db.close();
  return { rate, sample };
}

async function sdkRun() {
  const file = freshFile();
  const bg = await createBackgroundGeolocation({ database: file });
  await bg.ready({});
  await bg.start();
  const loop = async (from, to) => {
    for (let i = from; i < to; i++) await bg.recordLocation(movingFix(i));
  };
  await loop(0, WARMUP);
  const started = performance.now();
  await loop(WARMUP, WARMUP + RECORDS);
  const rate = RECORDS / ((performance.now() - started) / 1000);
  const count = await bg.getCount();
  const [sample] = await bg.getLocations({ limit: 1, order: 'DESC' });
  await bg.close();
  if (count !== WARMUP + RECORDS) throw new Error(`enqueue: the SDK queued ${count} of ${WARMUP + RECORDS} records`);
  return { rate, sample: JSON.stringify(sample) };
}

/** The floor is only fair if it writes what the SDK writes: same keys in the same order. */
function assertSameShape(sdkJson, floorJson) {
  const shape = (json) => JSON.stringify(json, (_key, value) => (typeof value === 'object' ? value : 0));
  const a = shape(JSON.parse(sdkJson));
  const b = shape(JSON.parse(floorJson));
  if (a !== b) throw new Error(`enqueue: the floor's record differs from the SDK's:\n  sdk   ${a}\n  floor ${b}`);
}

const floorRates = [];
const sdkRates = [];
let samples = {};
// Alternate the two so drift of the machine (cache, CPU frequency, neighbours) hits both alike.
for (let round = 0; round < ROUNDS; round++) {
  const floor = floorRun();
  const sdk = await sdkRun();
  floorRates.push(floor.rate);
  sdkRates.push(sdk.rate);
  samples = { sdk: sdk.sample, floor: floor.sample };
}
assertSameShape(samples.sdk, samples.floor);
console.log(
  `enqueue: ${RECORDS} records x ${ROUNDS} rounds; floor runs ${floorRates.map(Math.round).join(', ')}; ` +
    `sdk runs ${sdkRates.map(Math.round).join(', ')} rec/s (medians compared)`,
);
const pass = reportRatio('enqueue', 'recordLocation', median(sdkRates), median(floorRates), TARGET);
process.exitCode = pass ? 0 : 1;
