// A vehicle that starts reporting while the dashboard is open is seen arriving (issue 42): the
// map opened on a city widens to take in a device that first appears elsewhere, unless a device
// is selected (then the person is looking at that one and the view stays). And a position that
// arrives while a range change reloads a track stays on the map when the older answer lands.
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, markerInView, markerOf, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const MINUTE = 60_000;
const MONTREAL = { latitude: 45.5017, longitude: -73.5673 };
/** Where each new device appears: east of every device the page opened with (the earlier tests' included). */
const ARRIVALS = {
  '1440x900': { latitude: 38.7223, longitude: -9.1393 }, // Lisbon
  '390x844': { latitude: 55.7558, longitude: 37.6173 }, // Moscow
  selected: { latitude: 40.4168, longitude: -3.7038 }, // Madrid
};

describe('the live map', () => {
  let server: TestServer;
  let browser: Browser;
  let fresh = 0;

  /** A device's first position, now, uploaded as a tracker would. */
  async function appear(id: string, at: { latitude: number; longitude: number }): Promise<void> {
    const fix = record(`${id}-0`, at.latitude, at.longitude, new Date().toISOString());
    expect((await server.post('/locations', { location: fix, device_id: id })).status).toBe(200);
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(backends[0]!), launchChromium()]);
    const fixes = [0, 1, 2].map((k) =>
      record(
        `mtl-${k}`,
        MONTREAL.latitude + k * 0.0005,
        MONTREAL.longitude,
        new Date(Date.now() - (5 - k) * MINUTE).toISOString(),
      ),
    );
    expect((await server.post('/locations', { location: fixes, device_id: 'mtl' })).status).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`brings a device that appears after the page opened into view (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      expect(await markerInView(page, 'mtl')).toBe(true);
      const id = `new-${++fresh}`;
      await appear(id, ARRIVALS[label]);
      await markerOf(page, id).waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
      await expect.poll(() => markerInView(page, id), { timeout: UI_TIMEOUT_MS }).toBe(true);
      // The fleet it joined stays in view with it.
      expect(await markerInView(page, 'mtl')).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }

  it('keeps a live position that arrives while the track reloads (the answer made before it lands after)', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, BOTH_SIZES[0][1]);
    // The track's answer as the server made it when the page asked, handed to the page only once
    // the position below has been stored and drawn: the order a busy network gives now and then.
    let asked!: () => void;
    const trackAsked = new Promise<void>((resolve) => (asked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/dashboard\/devices\/mtl\/track\?/, async (route) => {
      const answer = await route.fetch();
      // Every load is held (a zoom's reload may be under way too); the range's is the one awaited.
      if (route.request().url().includes('from=')) asked();
      await released;
      await route.fulfill({ response: answer });
    });
    await page.selectOption('#range-preset', 'day'); // a live range: the track is loaded again
    await trackAsked;
    const now = record('mtl-live', MONTREAL.latitude + 0.01, MONTREAL.longitude + 0.01, new Date().toISOString());
    expect((await server.post('/locations', { location: now, device_id: 'mtl' })).status).toBe(200);
    const there = `${now.coords.latitude},${now.coords.longitude}`;
    await expect.poll(() => markerOf(page, 'mtl').getAttribute('data-latlng'), { timeout: UI_TIMEOUT_MS }).toBe(there);
    const drawn = page.waitForEvent('requestfinished', (request) =>
      /\/devices\/mtl\/track\?.*from=/.test(request.url()),
    );
    release();
    await drawn;
    // Two frames: the answer's JSON read and drawn.
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    expect(await markerOf(page, 'mtl').getAttribute('data-latlng')).toBe(there);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('keeps the view on a selected device when another appears', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, BOTH_SIZES[0][1]);
    await page.locator('#devices li[data-device="mtl"]').click();
    await page.locator('#details').filter({ hasText: 'mtl' }).waitFor({ timeout: UI_TIMEOUT_MS });
    const id = `new-${++fresh}`;
    await appear(id, ARRIVALS.selected);
    await markerOf(page, id).waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
    expect(await markerInView(page, 'mtl')).toBe(true);
    expect(await markerInView(page, id)).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
