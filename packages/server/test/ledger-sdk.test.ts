// The ledger end to end (issue 19): the real SDK numbers its records, and the server accounts for
// every number. A proxy that answers 200 without forwarding (a captive portal, a broken proxy: the
// classic silent loss) leaves exactly the numbers it swallowed missing. The numbering survives a
// restart, destroyLocations() and reset().
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackgroundGeolocation, ManualClock, ManualNetwork } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

type ProxyAction = 'forward' | 'fake-200' | 'fail-503';

/**
 * Forwards uploads to `target`, or, as `decide` says for the n-th request (1-based): answers 200
 * without forwarding (a captive portal, a broken proxy: the classic silent loss), or 503 (the
 * network drops).
 */
async function proxyTo(target: string, decide: (n: number) => ProxyAction) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const action = decide(++requests);
      if (action === 'fake-200') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (action === 'fail-503') return res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
      const headers = { ...req.headers };
      delete headers.host;
      const forward = http.request(`${target}${req.url}`, { method: req.method, headers }, (reply) => {
        res.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(res);
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.each(backends)('the ledger with the real SDK, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const ledger = async (device: string) => (await server.admin(`/api/devices/${device}/ledger`)).body;

  it('a proxy that fakes 200 for one upload makes exactly its record missing', async () => {
    const proxy = await proxyTo(server.url, (n) => (n === 2 ? 'fake-200' : 'forward'));
    const bg = await openSdk();
    await bg.ready({ http: { url: `${proxy}/locations`, autoSync: false, params: { device_id: 'faked' } } });
    const sequences = [];
    for (let i = 0; i < 5; i++)
      sequences.push((await bg.store.insertLocation({ latitude: 45 + i / 1e4, longitude: -73 })).sequence);
    expect(sequences).toEqual([1, 2, 3, 4, 5]);
    await bg.sync(); // five requests, one record each; the second never reaches the server
    expect(await bg.getCount()).toBe(0);
    expect(await ledger('faked')).toMatchObject({
      highestSequence: 5,
      received: 4,
      missing: 1,
      missingRanges: [[2, 2]],
    });
  });

  it('numbers never repeat: across a restart, destroyLocations() and reset()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-sequence-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const database = join(dir, 'device.db');
    const open = async () => {
      const bg = await createBackgroundGeolocation({ database, network: new ManualNetwork('wifi') });
      await bg.ready({
        http: { url: `${server.url}/locations`, autoSync: false, params: { device_id: 'numbered' } },
        reset: false,
      });
      return bg;
    };
    const record = async (bg: Awaited<ReturnType<typeof open>>) =>
      (await bg.store.insertLocation({ latitude: 45, longitude: -73 })).sequence;
    let bg = await open();
    expect([await record(bg), await record(bg)]).toEqual([1, 2]);
    await bg.close();
    bg = await open();
    expect(await record(bg)).toBe(3);
    await bg.destroyLocations();
    expect(await record(bg)).toBe(4);
    await bg.reset({ http: { url: `${server.url}/locations`, autoSync: false, params: { device_id: 'numbered' } } });
    expect(await record(bg)).toBe(5);
    await bg.sync();
    await bg.close();
    // 1..3 were destroyed: the upload of 5 (after the server said it keeps a ledger) reported them.
    expect(await ledger('numbered')).toMatchObject({
      highestSequence: 5,
      received: 2,
      dropped: { ttl: 0, cap: 0, destroyed: 3 },
      missing: 0,
      missingRanges: [],
    });
  });

  it('cap and TTL drops are reported with later uploads: nothing is missing', async () => {
    const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
    const drops: string[] = [];
    const bg = await openSdk({ clock });
    bg.onDrop(({ reason, count }) => drops.push(`${reason}:${count}`));
    await bg.ready({
      http: { url: `${server.url}/locations`, autoSync: false, params: { device_id: 'retention' } },
      persistence: { maxDaysToPersist: 1, maxRecordsToPersist: 3 },
    });
    const record = () => bg.store.insertLocation({ latitude: 45, longitude: -73 });
    for (let i = 0; i < 5; i++) await record(); // 1 and 2 over the cap
    await clock.advance(2 * 24 * 3600_000);
    await bg.getCount(); // retention: 3, 4 and 5 are older than a day
    for (let i = 0; i < 3; i++) await record(); // 6, 7, 8
    expect(drops).toEqual(['cap:1', 'cap:1', 'ttl:3']);
    await bg.sync(); // 6 first (the server says it keeps a ledger), then 7 and 8 carry the report
    expect(await ledger('retention')).toMatchObject({
      highestSequence: 8,
      received: 3,
      dropped: { ttl: 3, cap: 2, destroyed: 0 },
      missing: 0,
    });
    // Reported once: a later upload carries no report.
    await record();
    await bg.sync();
    expect(await ledger('retention')).toMatchObject({ dropped: { ttl: 3, cap: 2, destroyed: 0 }, missing: 0 });
  });

  it('a server that never said it keeps a ledger never gets the report (and gets every record)', async () => {
    const seen: { dropped: string | undefined; body: string }[] = [];
    const foreign = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ dropped: req.headers['waypost-dropped'] as string | undefined, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () => new Promise<void>((resolve) => (foreign.closeAllConnections(), foreign.close(() => resolve()))),
    );
    const bg = await openSdk();
    await bg.ready({
      http: { url: `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/locations`, autoSync: false },
    });
    await bg.store.insertLocation({ latitude: 45, longitude: -73 });
    await bg.destroyLocations(); // 1 destroyed
    for (let i = 0; i < 3; i++) await bg.store.insertLocation({ latitude: 45, longitude: -73 });
    await bg.sync();
    expect(seen.map((s) => s.dropped)).toEqual([undefined, undefined, undefined]);
    expect(seen.map((s) => (JSON.parse(s.body) as { location: { sequence: number } }).location.sequence)).toEqual([
      2, 3, 4,
    ]);
  });

  it('a device offline for 30 days catches up newest first: the backlog shows missing, then closes', async () => {
    const gate = { open: true };
    const proxy = await proxyTo(server.url, () => (gate.open ? 'forward' : 'fail-503'));
    const network = new ManualNetwork('wifi');
    const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
    const bg = await openSdk({ network, clock });
    await bg.ready({
      http: {
        url: `${proxy}/locations`,
        autoSync: false,
        batchSync: true,
        maxBatchSize: 100,
        params: { device_id: 'offline30' },
      },
      // Newest first: after a long time offline, the current position arrives at once.
      persistence: { maxDaysToPersist: 45, locationsOrderDirection: 'DESC' },
    });
    // One location an hour for 30 days while offline.
    const hour = 3600_000;
    for (let h = 0; h < 30 * 24; h++) {
      await bg.store.insertLocation({ latitude: 45, longitude: -73, timestamp: clock.now() - (720 - h) * hour });
    }
    // Back online: the first batch (the newest 100) arrives, then the network drops.
    const drop = bg.onHttp(() => {
      gate.open = false;
      drop.remove();
    });
    await bg.sync().catch(() => undefined);
    expect(await ledger('offline30')).toMatchObject({
      highestSequence: 720,
      received: 100,
      missing: 620,
      missingRanges: [[1, 620]],
    });
    gate.open = true;
    await bg.sync();
    expect(await ledger('offline30')).toMatchObject({
      highestSequence: 720,
      received: 720,
      missing: 0,
      missingRanges: [],
    });
  });

  it('a template gets the number as <%= sequence %>, and the ledger counts its records', async () => {
    const bg = await openSdk();
    await bg.ready({
      http: { url: `${server.url}/locations`, autoSync: false, params: { device_id: 'templated' } },
      persistence: {
        locationTemplate:
          '{"uuid":"<%= uuid %>","sequence":<%= sequence %>,"lat":<%= latitude %>,"lng":<%= longitude %>,"timestamp":"<%= timestamp %>"}',
      },
    });
    for (let i = 0; i < 3; i++) await bg.store.insertLocation({ latitude: 45, longitude: -73 });
    await bg.sync();
    expect(await ledger('templated')).toMatchObject({ highestSequence: 3, received: 3, missing: 0 });
  });
});
