import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { DESKTOP, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

describe('fleet events on the dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    receiver.status = 500;
    // Every failure is final: the events are dead-lettered at once.
    server = await startTestServer(backends[0]!, { retryForSeconds: 0, deliveryPollMs: 100 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    await receiver.stop();
  });

  it('draws the server geofences, lists sinks with their dead letters, and replays them', async () => {
    const circle = { identifier: '<b>depot</b>', latitude: 48, longitude: 11, radius: 200 };
    const polygon = {
      identifier: 'yard',
      vertices: [
        [48.01, 11.01],
        [48.02, 11.01],
        [48.02, 11.02],
      ],
    };
    for (const body of [circle, polygon])
      expect((await server.admin('/api/geofences', { method: 'POST', body })).status).toBe(201);
    const hook = await server.admin('/api/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['geofence.enter', 'geofence.exit'] },
    });
    const now = Date.now();
    const track = [
      record('f0', 48, 11, new Date(now - 60_000).toISOString()),
      record('f1', 48.005, 11.005, new Date(now).toISOString()),
    ];
    await server.post('/locations', { location: track, device_id: 'van-1' });
    // A failed wait says what the server made of the attempts (their dead letters and errors).
    const explained = async (error: Error) => {
      const dead = await server.admin(`/api/sinks/${hook.body.id}/dead-letters`);
      throw new Error(`${error.message}; dead letters: ${dead.text}`);
    };
    await receiver.waitFor(2, (r) => r.status === 500).catch(explained);

    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, DESKTOP);
    await page.locator('path.server-geofence').nth(1).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('path.server-geofence').count()).toBe(2);
    const sink = page.locator(`#sinks li[data-sink="${hook.body.id}"]`);
    await sink.filter({ hasText: '2 dead' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await sink.textContent()).toContain('last error');
    receiver.status = 200;
    await sink.locator('button.dead-letters').click();
    const rows = page.locator('#dead-letters table.dead tr');
    await rows.nth(2).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await rows.nth(1).textContent()).toContain('geofence.enter');
    expect(await rows.nth(1).textContent()).toContain('van-1');
    await page.locator('#dead-letters button.replay').click();
    await page.locator('#replayed').filter({ hasText: '2 events sent again' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await receiver.waitFor(2).catch(explained);
    expect(receiver.accepted<{ type: string }>().map((e) => e.type)).toEqual(['geofence.enter', 'geofence.exit']);
    // Ids and names are text: the geofence called <b>depot</b> made no element.
    expect(await page.locator('#map b').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
