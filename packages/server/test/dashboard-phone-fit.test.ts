// The dashboard on a phone (390x844), measured in real Chromium (issue 42's page defects): the
// playback bar clear of the zoom control, the selected track and its label inside the map area the
// sheet and the bars leave visible, and the sheet's header first in the sheet, seen without scrolling.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { openDashboard, PHONE, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

type Box = { left: number; top: number; right: number; bottom: number };

/** The bounding box of the first element matching this selector, or null when none is laid out. */
const box = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    if (!element) return null;
    const { left, top, right, bottom, width } = element.getBoundingClientRect();
    return width === 0 ? null : { left, top, right, bottom };
  })()`) as Promise<Box | null>;

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** A drive across Munich, west to east, one fix a minute: a long thin track. */
const drive = Array.from({ length: 40 }, (_, i) =>
  record(
    `drive-${i}`,
    48.1 + 0.004 * Math.sin(i / 6),
    11.35 + 0.009 * i,
    new Date(Date.UTC(2024, 4, 1, 10, i)).toISOString(),
  ),
);

describe('the dashboard on a phone', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    expect((await server.post('/locations', { location: drive, device_id: 'delivery-van-munich' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const selectVan = async (page: Page) => {
    await page.locator('#devices li[data-device="delivery-van-munich"]').click();
    await page.locator('#sidebar.expanded').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.locator('.vehicle-label[data-device="delivery-van-munich"]').waitFor({ timeout: UI_TIMEOUT_MS });
    // The sheet's rise and the map's moves are CSS transitions and animations: measured once they end.
    await expect.poll(() => page.evaluate('document.getAnimations().length'), { timeout: UI_TIMEOUT_MS }).toBe(0);
  };

  /** The part of the map neither the sheet nor a map control covers: where the track must be seen. */
  const visibleMap = async (page: Page): Promise<Box> => {
    const map = (await box(page, '#map'))!;
    const sheet = (await box(page, '#sidebar'))!;
    return { ...map, bottom: Math.min(map.bottom, sheet.top) };
  };
  const inside = (inner: Box, outer: Box) =>
    inner.left >= outer.left - 1 &&
    inner.right <= outer.right + 1 &&
    inner.top >= outer.top - 1 &&
    inner.bottom <= outer.bottom + 1;

  it('keeps the playback bar clear of the zoom control', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, PHONE);
    await selectVan(page);
    await page.locator('#playback').waitFor({ timeout: UI_TIMEOUT_MS });
    const bar = (await box(page, '#playback'))!;
    const zoom = (await box(page, '.leaflet-control-zoom'))!;
    expect(overlap(bar, zoom), JSON.stringify({ bar, zoom })).toBe(false);
    expect(inside(bar, { left: 0, top: 0, right: PHONE.width, bottom: PHONE.height })).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('fits the selected track and its label inside the map the sheet and the bars leave', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, PHONE);
    await selectVan(page);
    const area = await visibleMap(page);
    const track = (await box(page, '.leaflet-overlay-pane svg path'))!;
    const label = (await box(page, '.vehicle-label.selected'))!;
    const covers = [(await box(page, '#playback'))!, (await box(page, '.leaflet-control-zoom'))!];
    const seen = JSON.stringify({ area, track, label, covers });
    expect(area.bottom - area.top, seen).toBeGreaterThan(30);
    expect(inside(track, area), seen).toBe(true);
    expect(inside(label, area), seen).toBe(true);
    for (const cover of covers) {
      expect(overlap(track, cover), seen).toBe(false);
      expect(overlap(label, cover), seen).toBe(false);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows the sheet's header first, without scrolling", async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, PHONE);
    await selectVan(page);
    const sheet = (await box(page, '#sidebar'))!;
    const header = (await box(page, '#sidebar header.bar'))!;
    const details = (await box(page, '#details'))!;
    const seen = JSON.stringify({ sheet, header, details });
    expect(await page.evaluate(`document.getElementById('sidebar').scrollTop`)).toBe(0);
    expect(inside(header, sheet), seen).toBe(true);
    expect(header.bottom, seen).toBeLessThanOrEqual(details.top);
    expect(await page.locator('#logout').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
