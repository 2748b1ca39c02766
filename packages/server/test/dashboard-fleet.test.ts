import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { rawSql } from './helpers/raw-sql.js';

const DEVICES = 10_000;
const MINUTE = 60_000;

/**
 * Scrolls the list end to end in steps, each after the list has drawn its rows: the devices it
 * showed on the way. How fast it filters and scrolls is measured in bench/dashboard-fleet.mjs (a
 * timed assertion here failed whenever the rest of the suite took the machine).
 */
const SCROLL_THROUGH = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const scroller = document.getElementById('device-scroll');
  const seen = new Set();
  for (let i = 0; i <= 20; i++) {
    scroller.scrollTop = (scroller.scrollHeight * i) / 20;
    await frame();
    for (const li of document.querySelectorAll('#devices li')) seen.add(li.dataset.device);
  }
  return [...seen].sort();
})()`;

describe('a fleet of 10,000 devices in the dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  const now = Date.now();

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // Registered straight in the table: the list is what is measured here, not the ingest.
    const rows: string[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const id = `fleet-${String(i).padStart(5, '0')}`;
      const seen = now - i * MINUTE;
      const status = i % 50 === 49 ? 'blocked' : 'active';
      rows.push(
        `('${id}', 'van ${i}', '{}', ${seen}, ${seen}, '${status}', 1, ${45.4 + (i % 100) * 0.003}, ${-73.7 + Math.floor(i / 100) * 0.003}, ${seen})`,
      );
    }
    await rawSql(
      server.storage,
      `INSERT INTO devices (id, name, info, created_at, last_seen, status, records, last_latitude, last_longitude, last_recorded_at) VALUES ${rows.join(', ')}`,
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`lists, filters and scrolls them, drawing only the rows in view (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      await page.locator('#device-count').filter({ hasText: '10000 devices' }).waitFor({ timeout: UI_TIMEOUT_MS });
      // Only the rows in view exist in the page.
      expect(await page.locator('#devices li').count()).toBeLessThan(60);
      const seen = (await page.evaluate(SCROLL_THROUGH)) as string[];
      // Scrolled end to end: the first and the last device were drawn, never all at once.
      expect(seen[0]).toBe('fleet-00000');
      expect(seen.at(-1)).toBe('fleet-09999');
      expect(await page.locator('#devices li').count()).toBeLessThan(60);
      // Filters: by name, by status, by last seen.
      await page.fill('#device-search', 'van 4242');
      await expect.poll(() => page.locator('#devices li').count()).toBe(1);
      expect(await page.locator('#devices li strong').textContent()).toBe('van 4242');
      await page.fill('#device-search', '');
      await page.selectOption('#device-status', 'blocked');
      await page.locator('#device-count').filter({ hasText: '200 of 10000 devices' }).waitFor();
      await page.selectOption('#device-status', '');
      await page.selectOption('#device-seen', 'hour');
      await page
        .locator('#device-count')
        .filter({ hasText: /^6\d of 10000 devices$/ })
        .waitFor();
      // The map draws the most recently seen 200 (less the 25 whose tracks it loaded, empty here), not
      // 10,000: one by one, or counted in the badges of vehicles too close to tell apart at this zoom.
      const inBadges = (await page.locator('.vehicle-cluster').allTextContents()).reduce((n, t) => n + Number(t), 0);
      const markers = (await page.locator('path.device-marker').count()) + inBadges;
      expect(inBadges).toBeGreaterThan(0);
      expect(markers).toBeGreaterThan(100);
      expect(markers).toBeLessThanOrEqual(200);
      expect(problems).toEqual([]);
      await page.close();
    }, 120_000);
  }
});
