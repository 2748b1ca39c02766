// Presence reports (issue 31): a device with nothing to upload says it is there, once per
// http.presenceInterval, with an upload of no records carrying its health report, so the server
// tells parked from lost. Automatic uploads: autoSync, a Retry-After and Wi-Fi-only hold them.
import { ManualClock, ManualNetwork, type HttpEvent } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';

const clock = new ManualClock(Date.UTC(2026, 10, 26, 6));
const MIN = 60_000;

describe.each(backends)('presence reports, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock.now(), silentAfterSeconds: 3600 });
  });
  afterAll(async () => server.stop());

  const health = async (device: string): Promise<Json> => (await server.admin(`/api/devices/${device}/health`)).body;

  /** A started, stationary SDK on the shared clock that has uploaded once (the server said it reads reports). */
  async function parkedDevice(id: string, presenceInterval: number, network = new ManualNetwork('wifi')) {
    const bg = await openSdk({ clock, network });
    const http: HttpEvent[] = [];
    bg.onHttp((event) => http.push(event));
    await bg.ready({ http: { url: `${server.url}/locations`, params: { device_id: id }, presenceInterval } });
    await bg.start();
    // The first upload learns that the server reads reports; the second carries one.
    for (let i = 0; i < 2; i++) {
      await bg.recordLocation({ latitude: 52.52, longitude: 13.4, activity: { type: 'still', confidence: 90 } });
      await bg.sync();
    }
    http.length = 0;
    return { bg, http, network };
  }

  /** Advances the shared clock in `step` increments over `total`, awaiting the SDK's automatic uploads. */
  async function pass(bg: { idle(): Promise<void> }, total: number, step = 5 * MIN) {
    for (let t = 0; t < total; t += step) {
      await clock.advance(step);
      await bg.idle();
    }
  }

  it('a day parked: one presence report per interval, named parked (not silent) all along', async () => {
    const id = `${backend.name}-parked`;
    const { bg, http } = await parkedDevice(id, 900);
    await pass(bg, 24 * 60 * MIN);
    expect(http.length).toBe(96);
    expect(http.every((event) => event.success && event.uuids.length === 0)).toBe(true);
    expect(await health(id)).toMatchObject({ state: 'parked', cause: 'stationary', inferred: false });
  });

  it('a day parked between two drives is one stop between two trips, not a gap', async () => {
    const id = `${backend.name}-commute`;
    const { bg } = await parkedDevice(id, 900);
    const drive = async (fromEast: number) => {
      await bg.changePace(true);
      for (let i = 0; i < 6; i++) {
        await clock.advance(30_000);
        await bg.recordLocation({ latitude: 52.52, longitude: 13.4 + (fromEast + i * 300) / 67_800, speed: 10 });
      }
      await bg.changePace(false);
      await bg.sync();
    };
    const from = clock.now();
    await drive(0);
    await pass(bg, 24 * 60 * MIN);
    await drive(3000);
    const table = (await server.admin(`/api/dashboard/devices/${id}/trips?from=${new Date(from).toISOString()}`)).body;
    expect(table.trips).toHaveLength(2);
    expect(table.stops).toHaveLength(1);
    expect(table.stops[0].durationMs).toBeGreaterThanOrEqual(24 * 60 * MIN);
  });

  it('no presence report on cellular under Wi-Fi-only, nor while a setting of 0 turns them off', async () => {
    const cellular = new ManualNetwork('wifi');
    const held = await parkedDevice(`${backend.name}-wifi-only`, 600, cellular);
    await held.bg.setConfig({ http: { disableAutoSyncOnCellular: true } });
    cellular.set('cellular');
    await pass(held.bg, 60 * MIN);
    expect(held.http).toEqual([]);
    cellular.set('wifi');
    await pass(held.bg, 15 * MIN);
    expect(held.http.length).toBe(1);

    const off = await parkedDevice(`${backend.name}-off`, 0);
    await pass(off.bg, 3 * 60 * MIN);
    expect(off.http).toEqual([]);
  });

  it('a quiet device past silentAfter is named from its last report, inferred', async () => {
    const id = `${backend.name}-gone`;
    const { bg, network } = await parkedDevice(id, 900);
    network.set('none');
    await pass(bg, 70 * MIN);
    expect(await health(id)).toMatchObject({ state: 'waiting', cause: 'no-network', inferred: true });
  });
});
