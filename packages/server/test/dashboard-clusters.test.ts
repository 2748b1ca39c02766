import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// A large fleet zoomed out: 40 vans in one depot and a car 5 km away. At the view that fits them
// all, the depot is one badge saying how many vehicles it holds, not 40 dots and labels on top of
// each other; a click on it zooms in until every van is drawn.
const DEPOT = [52.52, 13.405] as const;

describe('clusters of vehicles', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const at = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < 40; i++) {
      const fix = record(`van-${i}`, DEPOT[0] + (i % 8) * 0.0002, DEPOT[1] + Math.floor(i / 8) * 0.0003, at);
      expect((await server.post('/locations', { location: fix, device_id: `van-${i}` })).status).toBe(200);
    }
    const car = record('car', DEPOT[0] + 0.045, DEPOT[1] + 0.02, at);
    expect((await server.post('/locations', { location: car, device_id: 'car' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`folds a depot of vans into a badge with their count, and opens it on a click (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      const badges = page.locator('.vehicle-cluster');
      const dots = page.locator('path.device-marker');
      await badges.first().waitFor({ timeout: UI_TIMEOUT_MS });
      // Every vehicle is counted once: in a badge, or drawn.
      const counted = async () => {
        const inBadges = (await badges.allTextContents()).reduce((sum, text) => sum + Number(text), 0);
        return inBadges + (await dots.count());
      };
      await expect.poll(counted, { timeout: UI_TIMEOUT_MS }).toBe(41);
      expect(await dots.count()).toBeLessThan(10);
      expect(await page.locator('.vehicle-label[data-device="car"]').count()).toBe(1); // alone: drawn
      // Into the depot: at street zoom every van is drawn, no badge left.
      // A badge is drawn anew whenever the map moves: each round clicks the badge there at that
      // moment and waits for it to leave the page (the map zoomed and redrew its badges); a click
      // that lands on a badge already being replaced is simply made again, within a bound.
      const deadline = Date.now() + 3 * UI_TIMEOUT_MS;
      while ((await badges.count()) > 0 && Date.now() < deadline) {
        const badge = await badges
          .first()
          .elementHandle({ timeout: 2_000 })
          .catch(() => null);
        if (!badge) continue;
        await badge.dispatchEvent('click').catch(() => undefined);
        await page.waitForFunction((element) => !element.isConnected, badge, { timeout: 5_000 }).catch(() => undefined);
        await badge.dispose();
      }
      await expect.poll(() => badges.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
      await expect.poll(() => dots.count(), { timeout: UI_TIMEOUT_MS }).toBeGreaterThanOrEqual(40);
      expect(await page.locator('path.device-marker[data-device="van-0"]').count()).toBe(1);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
