/* global postMessage, performance, crypto */
// The other storage candidate, measured by bench/browser.mjs: the official SQLite build for the web
// (@sqlite.org/sqlite-wasm) with its "opfs" VFS in a dedicated worker (the page is cross-origin
// isolated, as that VFS needs), running the Node store's own schema and statements: one
// autocommit INSERT per record, and read / POST / DELETE per batch. A bare loop, no SDK: it is
// compared with the bare IndexedDB loops of the same run to choose the store.
import sqlite3InitModule from '/sqlite/sqlite3.mjs';
import { defaultRecord, movingFix } from '/default-record.mjs';

const sqlite3 = await sqlite3InitModule({ print: () => {}, printErr: () => {} });
let files = 0;

function open() {
  if (!sqlite3.oo1.OpfsDb) throw new Error('the opfs VFS is not available (needs COOP/COEP and OPFS)');
  const db = new sqlite3.oo1.OpfsDb(`/bench-${Date.now()}-${files++}.db`);
  // TRUNCATE: the fastest rollback journal that keeps each commit durable (the opfs VFS has no WAL).
  db.exec('PRAGMA journal_mode = TRUNCATE');
  db.exec(`CREATE TABLE locations (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL,
             created_at INTEGER NOT NULL, json TEXT NOT NULL);
           CREATE INDEX locations_created_at ON locations (created_at);
           CREATE TABLE location_locks (id INTEGER PRIMARY KEY);`);
  return db;
}

const json = (i) =>
  JSON.stringify(
    defaultRecord(
      { ...movingFix(i), longitude: -73.6 },
      { uuid: crypto.randomUUID(), timestamp: new Date().toISOString() },
    ),
  );

function enqueue(records) {
  const db = open();
  const insert = db.prepare('INSERT INTO locations (uuid, created_at, json) VALUES (?, ?, ?)');
  const started = performance.now();
  for (let i = 0; i < records; i++) insert.bind([crypto.randomUUID(), Date.now(), json(i)]).stepReset();
  const rate = records / ((performance.now() - started) / 1000);
  insert.finalize();
  db.close();
  return rate;
}

async function drain(url, records, batch) {
  const db = open();
  db.transaction(() => {
    const insert = db.prepare('INSERT INTO locations (uuid, created_at, json) VALUES (?, ?, ?)');
    for (let i = 0; i < records; i++) insert.bind([crypto.randomUUID(), Date.now(), json(i)]).stepReset();
    insert.finalize();
  });
  const started = performance.now();
  let sent = 0;
  for (;;) {
    const rows = db.selectArrays('SELECT id, json FROM locations ORDER BY id LIMIT ?', [batch]);
    if (rows.length === 0) break;
    const body = `{"location":[${rows.map((r) => r[1]).join(',')}]}`;
    await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
    db.exec({ sql: 'DELETE FROM locations WHERE id BETWEEN ? AND ?', bind: [rows[0][0], rows.at(-1)[0]] });
    sent += rows.length;
  }
  const rate = sent / ((performance.now() - started) / 1000);
  db.close();
  return rate;
}

globalThis.onmessage = async ({ data }) => {
  try {
    const rate = data.task === 'enqueue' ? enqueue(data.records) : await drain(data.url, data.records, data.batch);
    postMessage({ rate });
  } catch (error) {
    postMessage({ error: String(error?.message ?? error) });
  }
};
postMessage({ ready: true });
