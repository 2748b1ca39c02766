// Receipt keys (issue 46): the SDK pins the key an upload URL first signs with; a rotation made on
// the server (endorsed by the old key) is accepted, a key changed behind the device's back is not:
// those records are deleted as any 2xx's (spec 3), not archived, with RECEIPT_KEY_CHANGED. A server
// that never offered receipts sees none of the receipt headers.
import Database from 'better-sqlite3';
import pg from 'pg';
import { ManualClock, type BackgroundGeolocation } from '@waypost/node';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSdk, startHarness } from '../../node/test/support/harness.js';
import { backends, type Backend } from './helpers/backends.js';
import { syncAfterRestart } from './helpers/sync-after-restart.js';

const START = Date.UTC(2026, 10, 27, 9);

async function record(bg: BackgroundGeolocation, n: number) {
  for (let i = 0; i < n; i++) await bg.store.insertLocation({ latitude: 52.5 + i / 1000, longitude: 13.4 });
  await bg.sync();
}

const receiptedRecords = async (bg: BackgroundGeolocation) =>
  (await bg.store.getReceipts()).reduce((n, day) => n + day.records, 0);

describe.each(backends)('receipt keys, on $name', (backend: Backend) => {
  let server: RunningServer;
  let storage: Awaited<ReturnType<Backend['create']>>['options'];
  let drop: () => Promise<void>;
  const clock = new ManualClock(START);
  const start = (port = 0) =>
    startServer({ port, adminToken: 'admin-secret', mapStyle: null, now: () => clock.now(), ...storage });
  beforeAll(async () => {
    const created = await backend.create();
    storage = created.options;
    drop = created.drop;
    server = await start();
  });
  afterAll(async () => {
    await server.close();
    await drop();
  });

  async function forgetKeys() {
    const sql = `DELETE FROM settings WHERE key = 'receipts.signing_keys'`;
    if (storage.database) {
      const db = new Database(storage.database);
      db.exec(sql);
      db.close();
      return;
    }
    const url = new URL(storage.databaseUrl!);
    const schema = url.searchParams.get('schema')!;
    url.searchParams.delete('schema');
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(`SET search_path TO "${schema}"`);
    await client.query(sql);
    await client.end();
  }

  it('accepts a rotated key the pinned one endorsed, and refuses a key changed behind its back', async () => {
    const bg = await openSdk({ clock });
    await bg.ready({
      http: {
        url: `${server.url}/locations`,
        params: { device_id: `${backend.name}-keys` },
        batchSync: true,
        autoSync: false,
      },
    });
    await record(bg, 1);
    await record(bg, 2);
    expect(await receiptedRecords(bg)).toBe(2);

    const rotated = await fetch(`${server.url}/api/receipt-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect(rotated.status).toBe(201);
    expect(((await rotated.json()) as { keys: unknown[] }).keys).toHaveLength(2);
    await record(bg, 2);
    expect(await receiptedRecords(bg)).toBe(4);

    // A key nobody endorsed: the settings row is gone, the restarted server makes a new key.
    await server.close();
    await forgetKeys();
    server = await start(Number(new URL(server.url).port));
    for (let i = 0; i < 2; i++) await bg.store.insertLocation({ latitude: 52.6 + i / 1000, longitude: 13.4 });
    expect(await syncAfterRestart(bg)).toBe(2);
    expect(await bg.getCount()).toBe(0); // delivered all the same (spec 3)
    expect(await receiptedRecords(bg)).toBe(4); // but not archived under a key it cannot trust
    expect(await bg.logger.getLog()).toContain('RECEIPT_KEY_CHANGED');
  });
});

describe('a server that does not offer receipts', () => {
  it('sees exactly the uploads of today: no receipt header, ever', async () => {
    const { bg, server } = await startHarness({ http: { batchSync: true, autoSync: false } });
    for (let round = 0; round < 3; round++) await record(bg, 2);
    expect(server.requests.length).toBe(3);
    for (const request of server.requests) {
      expect(Object.keys(request.headers).filter((name) => name.startsWith('waypost-receipt'))).toEqual([]);
    }
  });
});

describe('a request for numbers the device never had', () => {
  it('is answered with what it has (nothing), once, not an error loop', async () => {
    const ask = { background_geolocation: [['resendReceipted', { epoch: null, ranges: [[1, 100]] }]] };
    const { bg, server } = await startHarness(
      { http: { batchSync: true, autoSync: false } },
      { replies: [{ status: 200, json: ask }] },
    );
    await record(bg, 1);
    expect(server.requests.length).toBe(1);
    await record(bg, 1);
    expect(server.requests.length).toBe(2);
    const log = await bg.logger.getLog();
    expect(log.match(/RECEIPTED_LOST/g)).toHaveLength(1);
    expect(log).not.toContain('RESEND');
  });
});

describe('a repair request from another upload URL', () => {
  it('re-sends nothing: archived records go back only to the URL that receipted them', async () => {
    const created = await backends[0]!.create();
    const clock = new ManualClock(START);
    const real = await startServer({
      port: 0,
      adminToken: 'a',
      mapStyle: null,
      now: () => clock.now(),
      ...created.options,
    });
    try {
      const { bg, server: other } = await startHarness({ http: { batchSync: true, autoSync: false } });
      await bg.setConfig({ http: { url: `${real.url}/locations`, params: { device_id: 'moved' } } });
      await record(bg, 1);
      await record(bg, 2); // 2-3 receipted by the real server
      const [day] = await bg.store.getReceipts();
      expect(day).toMatchObject({ ranges: [[2, 3]] });
      other.script({
        status: 200,
        json: { background_geolocation: [['resendReceipted', { epoch: day!.epoch, ranges: [[2, 3]] }]] },
      });
      await bg.setConfig({ http: { url: other.url } });
      await record(bg, 1);
      expect(other.requests.length).toBe(1); // the upload; none of 2-3 follows it
      const log = await bg.logger.getLog();
      expect(log).toContain('RECEIPTED_LOST'); // the request was read: this URL holds none of them
      expect(log).not.toContain('RESEND');
    } finally {
      await real.close();
      await created.drop();
    }
  });
});
