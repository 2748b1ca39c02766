// A vehicle that starts reporting while the dashboard is open is seen arriving (issue 42): the
// map opened on a city widens to take in a device that first appears elsewhere, unless a device
// is selected (then the person is looking at that one and the view stays).
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
