import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { DESKTOP, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const LON_METERS = 111_320 * Math.cos((48 * Math.PI) / 180);
const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

describe("a device's timeline shows the server's fleet events", () => {
  let server: TestServer;
  let browser: Browser;
  const t0 = Date.now() - 10 * 60_000;
  const at = (seconds: number) => t0 + seconds * 1000;

  beforeAll(async () => {
    // No sink: the history keeps the events all the same. Records up to an hour old are not late.
    server = await startTestServer(backends[0]!, { lateAfterSeconds: 3600 });
    const depot = { identifier: 'depot', latitude: 48, longitude: 11, radius: 200 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: depot })).status).toBe(201);
    // Drives east through the depot, 300 m every 30 s; one motion change recorded by the device.
    const track = [0, 1, 2, 3, 4].map((i) => ({
      ...record(`d${i}`, 48, 11 + (-600 + i * 300) / LON_METERS, new Date(at(i * 30)).toISOString()),
      ...(i === 0 ? { event: 'motionchange' } : {}),
    }));
    // Sent newest first: the server still evaluates them in the device's order.
    expect((await server.post('/locations', { location: [...track].reverse(), device_id: 'truck' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the geofence enter and exit in device order beside the recorded events, one entry per event, and shows where', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, DESKTOP, {
      settings: { timeZone: 'utc' },
    });
    await page.click('#devices li[data-device="truck"]');
    const timeline = page.locator('#timeline li');
    // Newest first, as the rest of the timeline.
    await expect
      .poll(() => timeline.allTextContents(), { timeout: UI_TIMEOUT_MS })
      .toEqual([
        `${stamp(at(90))} server geofence exit depot`,
        `${stamp(at(60))} server geofence enter depot`,
        // The trip's start is the device's own motion change: one event, one entry (and on time).
        `${stamp(at(0))} started moving · trip start`,
      ]);
    expect(await page.locator('#timeline li.fleet').count()).toBe(3);
    expect(await page.locator('#timeline li[data-type="geofence.enter"]').count()).toBe(1);
    // A click shows where the device entered.
    await page.locator('#timeline li[data-type="geofence.enter"] button').click();
    await page.locator('path.record-focus').waitFor({ state: 'attached' });
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
