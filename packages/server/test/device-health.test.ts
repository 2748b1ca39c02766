// Device health (issue 31) end to end: the real SDK sends its health report (Waypost-Health) with
// its uploads once the server said it reads it, and the server names each device's state and cause
// from it: GET /api/devices/:id/health and the fleet's counts (GET /api/health).
import { ManualClock, ManualNetwork } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { type Json, startTestServer, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { launchChromium, logInThroughForm } from './helpers/browser.js';

const START = Date.UTC(2026, 10, 26, 8);
const clock = new ManualClock(START);

describe.each(backends)('device health with the real SDK, on $name', (backend) => {
  let server: TestServer;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    server = await startTestServer(backend, { now: () => clock.now(), silentAfterSeconds: 600, deliveryPollMs: 50 });
    const hook = await server.admin('/api/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['device.state'] },
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  });

  const health = async (device: string): Promise<Json> => (await server.admin(`/api/devices/${device}/health`)).body;

  /** An SDK on the shared clock, readied for `device`, with one upload done (the server said it reads reports). */
  async function device(id: string, network = new ManualNetwork('wifi')) {
    const bg = await openSdk({ clock, network, battery: () => ({ level: 0.54, is_charging: true }) });
    await bg.ready({ http: { url: `${server.url}/locations`, params: { device_id: id } } });
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync();
    return { bg, network };
  }

  it('the first upload carries no report; the next names the device live, with what it said', async () => {
    const { bg } = await device(`${backend.name}-live`);
    expect((await health(`${backend.name}-live`)).report).toBeNull();
    await bg.start();
    await bg.changePace(true);
    await bg.store.insertLocation({ latitude: 52.5001, longitude: 13.4 });
    await bg.sync();
    const answer = await health(`${backend.name}-live`);
    expect(answer).toMatchObject({ state: 'live', cause: 'reporting', inferred: false });
    expect(answer.report).toMatchObject({
      version: '0.1.0',
      clock: Math.floor(clock.now() / 1000),
      queued: 1,
      tracking: true,
      stopOnTerminate: true,
      network: 'wifi',
      battery: { level: 0.54, charging: true },
    });
    expect(answer.report.failure).toBeUndefined();
  });

  it('names stopped, waiting for Wi-Fi, and parked from the reports, each a history entry', async () => {
    const id = `${backend.name}-states`;
    const { bg, network } = await device(id);
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync(); // tracking never started
    expect(await health(id)).toMatchObject({ state: 'stopped', cause: 'tracking-stopped', inferred: false });

    await bg.start();
    await bg.setConfig({ http: { disableAutoSyncOnCellular: true } });
    network.set('cellular');
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync(); // sync() goes through; the report says automatic uploads wait for Wi-Fi
    expect(await health(id)).toMatchObject({ state: 'waiting', cause: 'wifi-only', inferred: false });

    network.set('wifi');
    await bg.changePace(true);
    await bg.changePace(false);
    await clock.advance(120_000);
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync();
    const parked = await health(id);
    expect(parked).toMatchObject({ state: 'parked', cause: 'stationary', inferred: false });
    expect(parked.since).toBe(new Date(clock.now() - 120_000).toISOString());
    expect(parked.history.map((h: Json) => h.cause)).toEqual(['stationary', 'wifi-only', 'tracking-stopped']);

    // Each change is the fleet event device.state, in order, naming what it changed from.
    const changes = () => receiver.accepted<Json>().filter((e) => e.device === id);
    await receiver.waitFor(3, (r) => r.status < 300 && (JSON.parse(r.body) as Json).device === id);
    expect(changes().map((e) => [e.type, e.data.cause, e.data.previous?.cause ?? null])).toEqual([
      ['device.state', 'tracking-stopped', null],
      ['device.state', 'wifi-only', 'tracking-stopped'],
      ['device.state', 'stationary', 'wifi-only'],
    ]);

    // /metrics: the fleet's devices by state, every state listed.
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).text();
    expect(metrics).toMatch(/^waypost_devices\{state="parked"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^waypost_devices\{state="source-lost"\} 0$/m);
  });

  it('a device quiet beyond silentAfter is named from its last report, inferred; the fleet counts it', async () => {
    const id = `${backend.name}-quiet`;
    const { bg } = await device(id);
    await bg.start();
    await bg.changePace(true);
    await bg.setConfig({ http: { disableAutoSyncOnCellular: true } });
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync();
    expect(await health(id)).toMatchObject({ state: 'live', inferred: false });
    await clock.advance(601_000);
    expect(await health(id)).toMatchObject({ state: 'waiting', cause: 'wifi-only', inferred: true });
    const fleet = (await server.admin('/api/health')).body;
    expect(fleet.devices).toContainEqual(expect.objectContaining({ id, state: 'waiting', cause: 'wifi-only' }));
    expect(fleet.counts.waiting).toBeGreaterThanOrEqual(1);
    expect(Object.keys(fleet.counts)).toEqual([
      'live',
      'parked',
      'waiting',
      'failing',
      'source-lost',
      'stopped',
      'silent',
    ]);
  });

  it("the dashboard's device list says each device's state in words", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await logInThroughForm(page, server.url, 'admin-secret');
      // Named in the tests above, all quiet by now (the clock moved on): from their last reports.
      const row = (id: string) => page.locator(`#devices li[data-device="${backend.name}-${id}"] .health-state`);
      await row('quiet').waitFor({ timeout: 10_000 });
      const likely = ' (likely, from what it said last)';
      expect(await row('quiet').textContent()).toMatch(/^ · Waiting for Wi-Fi since \S/);
      expect(await row('quiet').textContent()).toContain(likely);
      expect(await row('live').textContent()).toMatch(/^ · No network since \S/);
      expect(await row('live').textContent()).toContain(likely);
    } finally {
      await browser.close();
    }
  });

  it('a header that is not a Structured Field Dictionary is ignored; the upload is stored', async () => {
    const reply = await server.post(
      '/locations',
      {
        location: {
          uuid: 'h-1',
          timestamp: new Date(clock.now()).toISOString(),
          coords: { latitude: 1, longitude: 2 },
        },
        device_id: `${backend.name}-bad`,
      },
      { 'waypost-health': 'q=(((' },
    );
    expect(reply).toMatchObject({ status: 200, body: { stored: 1 } });
    expect((await health(`${backend.name}-bad`)).report).toBeNull();
  });

  it('an unknown device is a 404 naming it', async () => {
    expect((await server.admin('/api/devices/nobody/health')).body).toMatchObject({ code: 'UNKNOWN_DEVICE' });
  });
});
