/* global crypto, indexedDB, IDBKeyRange, performance, Worker */
// Loaded into Chromium by bench/browser.mjs (bundled with esbuild against the built
// packages/browser/dist/waypost-browser.js). Each function runs one timed round and returns its
// rate; SDK and floor work on the same storage (IndexedDB of the same origin, same object stores,
// same durability 'relaxed') with the same JSON per record.
import { createBackgroundGeolocation, ManualNetwork, openIndexedDbStore } from '@waypost/browser';
import { defaultRecord, movingFix } from './default-record.mjs';

let databases = 0;
const freshName = (what) => `bench-${what}-${Date.now()}-${databases++}`;

/** The SDK's default record, as the floor renders it: same keys, same order. */
const floorRecord = (i, now) =>
  defaultRecord(movingFix(i), { uuid: crypto.randomUUID(), timestamp: new Date(now).toISOString() });

/** The same database layout as the SDK's store (made by it), opened with the bare API. */
async function bareDb(name) {
  await (await openIndexedDbStore(name)).close();
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const done = (tx) =>
  new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = tx.onabort = () => reject(tx.error);
  });

/** Floor: one readwrite transaction per record, one add, awaited: the SDK's durability unit. */
async function floorAdder() {
  const db = await bareDb(freshName('floor-enqueue'));
  const add = async (i) => {
    const now = Date.now();
    const record = floorRecord(i, now);
    const tx = db.transaction('locations', 'readwrite', { durability: 'relaxed' });
    tx.objectStore('locations').add({ uuid: record.uuid, createdAt: now, json: JSON.stringify(record) });
    await done(tx);
  };
  return { add, close: async () => db.close() };
}

async function sdkAdder() {
  const bg = await createBackgroundGeolocation({ database: freshName('sdk-enqueue'), provider: null });
  await bg.ready({});
  await bg.start();
  let added = 0;
  const add = async (i) => {
    await bg.recordLocation(movingFix(i));
    added++;
  };
  const close = async () => {
    const count = await bg.getCount();
    await bg.close();
    if (count < added) throw new Error(`the SDK queued ${count} of ${added}`);
  };
  return { add, close };
}

/**
 * One round of both enqueues, interleaved in chunks of `chunk` records so that a busy neighbour on a
 * shared machine slows both alike; each side's rate over its own time. The side that goes first
 * alternates (floor-SDK, SDK-floor, ...): whatever one side's writes leave to the storage's
 * background work (a flush, a compaction) lands on the other as often as on itself.
 */
async function enqueueRound(records, warmup, chunk) {
  const sides = [await floorAdder(), await sdkAdder()];
  const ms = [0, 0];
  let i = 0;
  for (const side of sides) for (let k = 0; k < warmup; k++) await side.add(i++);
  for (let timed = 0, pair = 0; timed < records; timed += chunk, pair++) {
    for (const s of pair % 2 ? [1, 0] : [0, 1]) {
      const started = performance.now();
      for (let k = 0; k < chunk; k++) await sides[s].add(i++);
      ms[s] += performance.now() - started;
    }
  }
  for (const side of sides) await side.close();
  return { floor: records / (ms[0] / 1000), sdk: records / (ms[1] / 1000) };
}

/** A queue of `records` made by the SDK itself (insertLocation, autoSync off). */
async function fillQueue(name, records) {
  const bg = await createBackgroundGeolocation({ database: name, provider: null });
  await bg.ready({ http: { autoSync: false }, logger: { logLevel: 'OFF' } });
  for (let i = 0; i < records; i++) await bg.insertLocation(movingFix(i));
  await bg.close();
}

/** Floor: read a batch, splice its JSON into one body, POST, delete that range; no locks, no log. */
async function floorDrain(url, records, batch) {
  const name = freshName('floor-drain');
  await fillQueue(name, records);
  const db = await bareDb(name);
  const started = performance.now();
  let sent = 0;
  for (;;) {
    const read = db.transaction('locations', 'readonly');
    const rows = await new Promise(
      (resolve) => (read.objectStore('locations').getAll(null, batch).onsuccess = (e) => resolve(e.target.result)),
    );
    if (rows.length === 0) break;
    const body = `{"location":[${rows.map((r) => r.json).join(',')}]}`;
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.text();
    const del = db.transaction('locations', 'readwrite', { durability: 'relaxed' });
    del.objectStore('locations').delete(IDBKeyRange.bound(rows[0].id, rows.at(-1).id));
    await done(del);
    sent += rows.length;
  }
  const rate = sent / ((performance.now() - started) / 1000);
  db.close();
  if (sent !== records) throw new Error(`the floor sent ${sent} of ${records}`);
  return rate;
}

/** SDK: the automatic upload a reconnect triggers, timed until the queue is empty. */
async function sdkDrain(url, records, batch) {
  const name = freshName('sdk-drain');
  await fillQueue(name, records);
  const network = new ManualNetwork('none');
  const bg = await createBackgroundGeolocation({ database: name, provider: null, network });
  await bg.ready({ reset: false, http: { url, autoSync: true, batchSync: true, maxBatchSize: batch } });
  let sent = 0;
  const drained = new Promise((resolve, reject) =>
    bg.onHttp((event) => {
      if (!event.success) reject(new Error(`upload failed: ${event.status}`));
      sent += batch;
      if (sent >= records) resolve();
    }),
  );
  const started = performance.now();
  network.set('wifi');
  await drained;
  const rate = records / ((performance.now() - started) / 1000);
  const left = await bg.getCount();
  await bg.close();
  if (left !== 0) throw new Error(`${left} records left after the drain`);
  return rate;
}

/** SQLite-wasm on OPFS in a worker (bench/lib/sqlite-wasm-worker.mjs): one task, one rate. */
async function sqliteWasm(task) {
  const worker = new Worker('/sqlite-wasm-worker.mjs', { type: 'module' });
  try {
    return await new Promise((resolve, reject) => {
      worker.onerror = (event) => reject(new Error(event.message));
      worker.onmessage = ({ data }) => {
        if (data.ready) worker.postMessage(task);
        else if (data.error) reject(new Error(data.error));
        else resolve(data.rate);
      };
    });
  } finally {
    worker.terminate();
  }
}

globalThis.bench = { enqueueRound, floorDrain, sdkDrain, sqliteWasm };
