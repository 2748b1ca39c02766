import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, overflowing, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// The share page reads like the dashboard (issue 32): times in the visitor's time zone and
// language, or UTC, and metric or imperial for its trip's distance and speed, as this browser's
// settings say (the ones the dashboard stores) or as chosen on the page's own control.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Kolkata is UTC+05:30 all year: a zone no test machine is in by chance. */
const KOLKATA_MS = 5.5 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
/** A drive due north: 4 fixes a minute apart, 0.002° of latitude (222.4 m) each, 666 m in 3 minutes. */
const start = Math.floor((Date.now() - 2 * HOUR) / 1000) * 1000;
const drive = [0, 1, 2, 3].map((i) =>
  record(`n-${i}`, 45.5 + i * 0.002, -73.57, new Date(start + i * MINUTE).toISOString()),
);
/** What the page measures along the line (a sphere of 6,371 km, as vehicle-state.js does). */
const METRES = 3 * 6_371_000 * ((0.002 * Math.PI) / 180);

/** The trip's tooltip, as shown when the line is pointed at. */
async function tripTip(page: Page): Promise<string> {
  await page.locator('path.share-trip').dispatchEvent('mouseover');
  const tip = page.locator('.leaflet-tooltip').filter({ hasText: '→' });
  await tip.waitFor({ timeout: UI_TIMEOUT_MS });
  const text = (await tip.textContent())!;
  await page.locator('path.share-trip').dispatchEvent('mouseout');
  await tip.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
  return text;
}

describe('the share page reads in the visitor’s time zone and units', () => {
  let server: TestServer;
  let browser: Browser;
  let url = '';

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    expect((await server.post('/locations', { location: drive, device_id: 'courier' })).status).toBe(200);
    const body = { device: 'courier', from: start - HOUR, to: start + HOUR, expiresAt: Date.now() + 24 * HOUR };
    const share = await server.admin('/api/shares', { method: 'POST', body });
    expect(share.status).toBe(201);
    url = share.body.url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`local time in the visitor's language by default, UTC and imperial on demand, remembered (${label})`, async () => {
      const context = await browser.newContext({ viewport, timezoneId: 'Asia/Kolkata', locale: 'en-GB' });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      const header = page.locator('#share-window');
      await header.filter({ hasText: 'link valid until' }).waitFor({ timeout: UI_TIMEOUT_MS });
      // Kolkata's wall clock in British English ("1 May 2024, 15:30:00"), no UTC.
      const local = new Date(start - HOUR + KOLKATA_MS);
      const day = `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
      const clock = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
      expect(await header.textContent()).toContain(`from ${day}, ${clock}`);
      expect(await header.textContent()).not.toContain('UTC');
      const metric = await tripTip(page);
      expect(metric).toContain(`${Math.round(METRES)} m · ${((METRES / 180) * 3.6).toFixed(1)} km/h average`);

      // The page's own control: UTC and imperial, at once, without a reload.
      await page.click('#share-settings summary');
      await page.selectOption('#setting-timeZone', 'utc');
      await page.selectOption('#setting-units', 'imperial');
      const utc = new Date(start - HOUR).toISOString().replace('T', ' ').replace('.000Z', ' UTC');
      await header.filter({ hasText: `from ${utc}` }).waitFor({ timeout: UI_TIMEOUT_MS });
      const imperial = await tripTip(page);
      const mph = ((METRES / 180) * 3600) / 1609.344;
      expect(imperial).toContain(`${(METRES / 1609.344).toFixed(2)} mi · ${mph.toFixed(1)} mph average`);
      expect(imperial).toContain(' UTC →');
      expect(await overflowing(page, ['#share-header', '#share-settings'])).toEqual([]);

      // Remembered in this browser (the key the dashboard uses): the next visit reads the same.
      await page.reload();
      await header.filter({ hasText: `from ${utc}` }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await tripTip(page)).toBe(imperial);
      expect(await page.locator('#setting-units').inputValue()).toBe('imperial');
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
