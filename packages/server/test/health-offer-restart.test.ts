// The health report's offer outlives a device restart (kv health.offers, the mechanism receipts
// use): a device remembered only in memory that its server reads reports, so the first upload of
// every start (an agent's restart, an app's cold start) went without one, and the server kept the
// report from before the restart as the device's word. An upload URL that moves to a server that
// knows nothing of Waypost gets the report at most once: its first 2xx without the offer withdraws
// it, and the withdrawal outlives a restart too.
import { createServer, type Server } from 'node:http';
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
import { boundedSdk, closeWithin, tempDir } from '../../node/test/support/harness.js';
import { freePort } from '../../node/test/support/free-port.js';
import type { Json } from './helpers/client.js';

const START = Date.UTC(2026, 10, 29, 9);
const MIN = 60_000;

/** A server that knows nothing of Waypost on `port`: 200 {"success":true}; whether each request carried a report. */
async function plainServer(port: number): Promise<boolean[]> {
  const carried: boolean[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      carried.push(request.headers['waypost-health'] !== undefined);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return carried;
}

async function upload(bg: BackgroundGeolocation): Promise<void> {
  await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
  await bg.sync();
}

describe('the health report offer across device restarts', () => {
  it('the first upload after a restart carries the report; a URL that stops offering gets it at most once', async () => {
    const dir = tempDir('waypost-health-offer-');
    const port = await freePort();
    const clock = new ManualClock(START);
    const database = join(dir, 'device.db');
    const config: ConfigInput = {
      http: { url: `http://127.0.0.1:${port}/locations`, params: { device_id: 'restarts' }, autoSync: false },
    };
    const open = async () => {
      const bg = boundedSdk(await createBackgroundGeolocation({ database, network: new ManualNetwork('wifi'), clock }));
      await bg.ready(config);
      return bg;
    };

    const adminToken = 'offer-admin';
    const waypost = await startServer({
      port,
      database: join(dir, 'server.db'),
      adminToken,
      mapStyle: null,
      now: () => clock.now(),
    });
    const report = async (): Promise<Json> => {
      const answer = await fetch(`${waypost.url}/api/devices/restarts/health`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      return ((await answer.json()) as Json).report;
    };
    let bg = await open();
    try {
      await upload(bg); // the answer says the server reads reports
      await upload(bg);
      expect(await report()).toMatchObject({ clock: START / 1000, device: 'restarts' });

      await closeWithin(bg);
      await clock.advance(10 * MIN);
      bg = await open(); // the device restarts: its first upload carries its report at once
      await upload(bg);
      expect(await report()).toMatchObject({ clock: (START + 10 * MIN) / 1000, up: 0, device: 'restarts' });
    } finally {
      await waypost.close();
    }

    const carried = await plainServer(port);
    await upload(bg); // still carried: nothing told the device yet that the URL changed hands
    await upload(bg); // the 2xx without the offer withdrew it
    await closeWithin(bg);
    bg = await open();
    await upload(bg); // and the withdrawal outlives a restart
    expect(carried).toEqual([true, false, false]);
    expect(await bg.getCount()).toBe(0);
    await closeWithin(bg);
  });
});
