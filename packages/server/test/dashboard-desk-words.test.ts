// The device panel read at 1440x900 as a new user would (issue 42): every timeline entry in words
// (a state change says the state, not `device.state`), no time or value split over two lines in the
// timeline and the records table, and the two ages told apart (the map's is the fix's, the list's
// the upload's). Real Chromium; the server's clock is the test's.
import { formatHealthHeader } from '@waypost/sdk/internal';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { DESKTOP, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const MINUTE = 60_000;

describe('the device panel at 1440x900 reads as words', () => {
  let server: TestServer;
  let browser: Browser;
  const fixAt = Date.now() - 3 * MINUTE;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // Parked (standing still on Wi-Fi): the server names the state and tells it as `device.state`.
    const fixes = [0, 1, 2].map((k) => ({
      ...record(`van-${k}`, 45.5 + k * 0.0001, -73.57, new Date(fixAt - (2 - k) * MINUTE).toISOString()),
      event: k === 0 ? 'motionchange' : undefined,
      is_moving: k === 0,
      coords: {
        ...record(`van-${k}`).coords,
        latitude: 45.5 + k * 0.0001,
        longitude: -73.57,
        speed: 1.42,
        accuracy: 12.34,
      },
    }));
    const health = formatHealthHeader({
      clock: Math.floor(Date.now() / 1000),
      motion: { moving: false },
      network: 'wifi',
    });
    const sent = await server.post('/locations', { location: fixes, device_id: 'van' }, { 'waypost-health': health });
    expect(sent.status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** How many lines each element's text takes (distinct tops of its line boxes): one, or wrapped. */
  const linesOf = (page: Page, selector: string): Promise<{ text: string; lines: number }[]> =>
    page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      return { text: element.textContent, lines: tops.size };
    })`);

  async function openVan(): Promise<{ page: Page; problems: string[] }> {
    const opened = await openDashboard(browser, server.url, server.adminToken, DESKTOP);
    await opened.page.click('#devices li[data-device="van"]');
    await opened.page.locator('#timeline li').first().waitFor({ timeout: UI_TIMEOUT_MS });
    return opened;
  }

  it('says a state change in words, never the raw type', async () => {
    const { page, problems } = await openVan();
    const change = page.locator('#timeline li[data-type="device.state"]');
    await change.first().waitFor({ timeout: UI_TIMEOUT_MS });
    const texts = await page.locator('#timeline li').allTextContents();
    expect(texts.filter((text) => /\b[a-z]+\.[a-z]+\b/.test(text.replace(/\d[\d.,:]*/g, '')))).toEqual([]);
    expect(await change.first().textContent()).toMatch(/state: Parked since /);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('never breaks a time, or a value from its unit, over two lines', async () => {
    const { page, problems } = await openVan();
    await page.locator('#records tbody tr').first().waitFor({ timeout: UI_TIMEOUT_MS });
    // The coordinates may break at ", " (latitude over longitude), the one break that splits no value.
    const cells = await linesOf(
      page,
      '#records tbody td:not([data-label="Coordinates"]), #timeline li > button, #timeline li > .when',
    );
    expect(cells.length).toBeGreaterThan(10);
    expect(cells.filter((cell) => cell.lines !== 1)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("tells the map's age (the fix's) from the list's (the upload's)", async () => {
    // The fix was 3 minutes old when the server started; the page says its age in whole minutes by
    // the wall clock, so it may say one more on a slow run: the age at opening up to the age now.
    const minutesOld = () => Math.floor((Date.now() - fixAt) / MINUTE);
    const atOpening = minutesOld();
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, DESKTOP);
    const label = page.locator('.vehicle-label[data-device="van"]');
    await label.waitFor({ timeout: UI_TIMEOUT_MS });
    const said = /fix\s*(\d+) min\. ago$/.exec((await label.textContent()) ?? '');
    expect(said, "the map label says the fix's age in minutes").not.toBeNull();
    expect(Number(said![1])).toBeGreaterThanOrEqual(atOpening);
    expect(Number(said![1])).toBeLessThanOrEqual(minutesOld());
    const row = page.locator('#devices li[data-device="van"] .meta');
    expect(await row.textContent()).toMatch(/ · upload \d+ s ago/);
    expect(await row.textContent()).not.toMatch(/\bseen\b/);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
