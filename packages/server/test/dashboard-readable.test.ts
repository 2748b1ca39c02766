import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, overflowing, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// Readable numbers (issue 32): times in the browser's own time zone and language unless UTC is
// chosen, one unit system everywhere (a remembered setting), and tables that fit their column.
const GPX = readFileSync(fileURLToPath(new URL('../../../examples/track.gpx', import.meta.url)), 'utf8');
const HOUR = 3600_000;
const walk = [...GPX.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"><ele>[-\d.]+<\/ele><time>([^<]+)<\/time>/g)].map(
  (m) => ({ lat: Number(m[1]), lon: Number(m[2]), t: Date.parse(m[3]!) }),
);
/** Kolkata is UTC+05:30 all year (no daylight saving): a zone no test machine is in by chance. */
const KOLKATA_MS = 5.5 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The newest record's "Recorded at" and "Speed" cells. */
async function newestCells(page: Page): Promise<{ at: string; speed: string }> {
  const cells = page.locator('#records tbody tr').first().locator('td');
  return { at: (await cells.nth(0).textContent())!, speed: (await cells.nth(4).textContent())! };
}

describe('the dashboard reads in local time and one unit system, in tables that fit', () => {
  let server: TestServer;
  let browser: Browser;
  const newest = walk.at(-1)!.t + HOUR;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // The example walk twice, an hour apart: two trips and the stop between, at 1.4 m/s.
    const fixes = [0, HOUR].flatMap((shift, round) =>
      walk.map((p, i) => ({
        ...record(`walk-${round}-${i}`, p.lat, p.lon, new Date(p.t + shift).toISOString()),
        odometer: i * 10,
        coords: { latitude: p.lat, longitude: p.lon, accuracy: 4, speed: 1.4, heading: 0, altitude: 500 },
      })),
    );
    expect((await server.post('/locations', { location: fixes, device_id: 'walker' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`shows local time by default and UTC on demand, metric or imperial throughout, remembered (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        timezoneId: 'Asia/Kolkata',
        locale: 'en-GB',
      });
      await page.locator('#devices li[data-device="walker"]').click();
      await page.locator('#records tbody tr').first().waitFor({ timeout: UI_TIMEOUT_MS });
      // Local: Kolkata's wall clock in British English ("1 May 2024, 15:30:00"), no UTC, no Z.
      const local = new Date(newest + KOLKATA_MS);
      const { at, speed } = await newestCells(page);
      expect(at).toContain(`${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`);
      expect(at).toContain(`${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`);
      expect(at).not.toMatch(/UTC|Z$/);
      expect(speed).toBe('5.0 km/h');
      const trip = page.locator('#trips .trips-table tbody tr').first();
      await trip.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await trip.locator('td').nth(5).textContent()).toBe('5.0 km/h');
      expect(await trip.locator('td').nth(4).textContent()).toMatch(/^\d+(\.\d\d km| m)$/);

      // Tables fit their column: nothing cut off, no sideways scroll.
      await page.locator('#trips .stops-table tbody tr').first().waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await overflowing(page, ['#records', '#trips .trips-table', '#trips .stops-table'])).toEqual([]);

      // Imperial: speeds in mph and distances in miles or feet, in the records and the trips alike.
      await page.click('#settings-panel summary');
      await page.selectOption('#setting-units', 'imperial');
      await expect.poll(async () => (await newestCells(page)).speed, { timeout: UI_TIMEOUT_MS }).toBe('3.1 mph');
      const imperialTrip = page.locator('#trips .trips-table tbody tr').first();
      await expect
        .poll(() => imperialTrip.locator('td').nth(5).textContent(), { timeout: UI_TIMEOUT_MS })
        .toBe('3.1 mph');
      expect(await imperialTrip.locator('td').nth(4).textContent()).toMatch(/^\d+(\.\d\d mi| ft)$/);
      expect(await page.locator('#trips-summary').textContent()).toMatch(/ (mi|ft)$/);
      expect(await page.locator('#details').textContent()).not.toMatch(/km\/h| km\b/);
      expect(await overflowing(page, ['#records', '#trips .trips-table', '#trips .stops-table'])).toEqual([]);

      // UTC on demand, exactly.
      await page.selectOption('#setting-timeZone', 'utc');
      const utc = new Date(newest)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
      await expect.poll(async () => (await newestCells(page)).at, { timeout: UI_TIMEOUT_MS }).toBe(utc);
      const playback = page.locator('#playback-time');
      await expect.poll(() => playback.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(/ UTC$/);

      // Remembered in this browser: a reload keeps both choices.
      await page.reload();
      await page.locator('#devices li[data-device="walker"]').click({ timeout: UI_TIMEOUT_MS });
      await page.locator('#records tbody tr').first().waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await newestCells(page)).toEqual({ at: utc, speed: '3.1 mph' });
      expect(await page.locator('#setting-units').inputValue()).toBe('imperial');
      expect(problems).toEqual([]);
      await page.close();
    }, 120_000);
  }
});
