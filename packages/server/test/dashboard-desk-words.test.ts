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
});
