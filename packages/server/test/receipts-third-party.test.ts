// Receipts only between a Waypost SDK and a Waypost server that offers them (issue 46): a server
// that does not (here a plain node:http server answering as the anchor's demo server does) sees
// exactly the spec's uploads, byte for byte the records queued and no header of Waypost's; an
// upload URL that moves from a Waypost server to such a server stops being asked at its first 2xx
// there, and a device remembers both, the offer and its withdrawal, across its restarts.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import {
  createBackgroundGeolocation,
  ManualClock,
  ManualNetwork,
  type BackgroundGeolocation,
  type ConfigInput,
} from '@waypost/node';
import { startServer } from '@waypost/server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { boundedSdk, closeWithin, openSdk, tempDir } from '../../node/test/support/harness.js';
import { freePort } from '../../node/test/support/free-port.js';
import { syncAfterRestart } from './helpers/sync-after-restart.js';

interface Seen {
  url: string;
  headers: string[];
  body: Buffer;
}

/** A server that knows nothing of Waypost: answers every upload 200 {"success":true} (the demo server's answer). */
async function plainServer(port = 0): Promise<{ url: string; requests: Seen[] }> {
  const requests: Seen[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = request.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
      requests.push({ url: request.url ?? '', headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests };
}

/** Records `n` fixes and uploads them in one sync; answers the queued records' JSON, as the store held it. */
async function record(bg: BackgroundGeolocation, n: number): Promise<unknown[]> {
  for (let i = 0; i < n; i++) await bg.store.insertLocation({ latitude: 52.5 + i / 1000, longitude: 13.4 });
  const queued = await bg.store.getLocations();
  await bg.sync();
  return queued;
}

const waypostHeaders = (seen: Seen) => seen.headers.filter((name) => name.startsWith('waypost-'));
const receiptHeaders = (seen: Seen) => seen.headers.filter((name) => name.startsWith('waypost-receipt'));

describe('a server that does not offer receipts, answering as the anchor demo server does', () => {
  it('gets the queued records exactly, no Waypost header, and the device deletes them on 2xx (spec 3)', async () => {
    const server = await plainServer();
    const bg = await openSdk({ clock: new ManualClock(Date.UTC(2026, 10, 27, 9)) });
    await bg.ready({
      http: { url: `${server.url}/api/locations`, params: { device_id: 'plain' }, batchSync: true, autoSync: false },
    });
    const sent: unknown[][] = [];
    for (let round = 0; round < 3; round++) sent.push(await record(bg, 2));
    expect(server.requests).toHaveLength(3);
    server.requests.forEach((request, i) => {
      expect(request.url).toBe('/api/locations');
      expect(waypostHeaders(request)).toEqual([]);
      // The spec's body, byte for byte: the records as queued, and the params; nothing else.
      expect(request.body.toString('utf8')).toBe(JSON.stringify({ location: sent[i], device_id: 'plain' }));
    });
    expect(await bg.getCount()).toBe(0);
    expect(await bg.store.getReceipts()).toEqual([]);
  });
});

describe('an upload URL that moves from a Waypost server to one that does not offer receipts', () => {
  it('is asked for receipts after a device restart while it offers them, and not after its first 2xx without', async () => {
    const dir = tempDir('waypost-receipts-moved-');
    const port = await freePort();
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9));
    const database = join(dir, 'device.db');
    const config: ConfigInput = {
      http: {
        url: `http://127.0.0.1:${port}/locations`,
        params: { device_id: 'moved' },
        batchSync: true,
        autoSync: false,
      },
    };
    const open = async () => {
      const bg = boundedSdk(await createBackgroundGeolocation({ database, network: new ManualNetwork('wifi'), clock }));
      await bg.ready(config);
      return bg;
    };
    const receipted = async (bg: BackgroundGeolocation) =>
      (await bg.store.getReceipts()).reduce((n, day) => n + day.records, 0);

    const waypost = await startServer({
      port,
      database: join(dir, 'server.db'),
      adminToken: 'moved-admin',
      mapStyle: null,
    });
    let bg = await open();
    try {
      await record(bg, 1); // the answer offers receipts
      await record(bg, 2); // 2-3 receipted
      await closeWithin(bg);
      bg = await open(); // the device restarts: its first upload asks for a receipt again
      await record(bg, 1);
      expect(await receipted(bg)).toBe(3);
    } finally {
      await waypost.close();
    }

    const plain = await plainServer(port);
    // Still asks: nothing told the device yet that the URL changed hands. The same address, another
    // server: the first upload may meet the gone server's kept-alive connection (syncAfterRestart).
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    expect(await syncAfterRestart(bg)).toBe(1);
    expect(receiptHeaders(plain.requests[0]!)).toEqual(['waypost-receipts', 'waypost-receipted']);
    await record(bg, 1); // the 2xx without the offer withdrew it
    await closeWithin(bg);
    bg = await open();
    await record(bg, 1); // and the withdrawal outlives a restart
    expect(plain.requests.slice(1).map(receiptHeaders)).toEqual([[], []]);
    expect(await bg.getCount()).toBe(0);
    await closeWithin(bg);
  });
});
