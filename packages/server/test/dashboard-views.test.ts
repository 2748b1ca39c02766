import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import {
  BOTH_SIZES,
  colourOf,
  DESKTOP,
  markerInView,
  markerOf,
  openDashboard,
  PHONE,
  UI_TIMEOUT_MS,
} from './helpers/dashboard-page.js';

const MINUTE = 60_000;
const MONTREAL = { latitude: 45.5017, longitude: -73.5673 };

/** Seven devices across Montreal, a phone registered with a typed name, and one silent for months in Lisbon. */
async function seedFleet(server: TestServer, now: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const id = `mtl-${i + 1}`;
    const fixes = [0, 1, 2].map((k) =>
      record(
        `${id}-${k}`,
        MONTREAL.latitude + (i - 3) * 0.004 + k * 0.0005,
        MONTREAL.longitude + (i - 3) * 0.006,
        new Date(now - (10 - k) * MINUTE - i * MINUTE).toISOString(),
      ),
    );
    expect((await server.post('/locations', { location: fixes, device_id: id })).status).toBe(200);
    ids.push(id);
  }
  const old = record('lisbon-0', 38.72, -9.14, new Date(now - 90 * 24 * 60 * MINUTE).toISOString());
  expect((await server.post('/locations', { location: old, device_id: 'lisbon-old' })).status).toBe(200);
  return ids;
}

describe('the dashboard as a first-time user sees it', () => {
  let server: TestServer;
  let empty: TestServer;
  let browser: Browser;
  let active: string[];
  let phoneId: string;
  const now = Date.now();

  beforeAll(async () => {
    [server, empty] = await Promise.all([startTestServer(backends[0]!), startTestServer(backends[0]!)]);
    active = await seedFleet(server, now);
    // The tracker page registers with the name typed into it.
    const registered = await server.post('/auth/register', { uuid: '3f1c1e9a-uuid-of-a-phone', name: 'Ana’s phone' });
    expect(registered.status).toBe(200);
    phoneId = registered.body.deviceId;
    const fix = record('phone-1', MONTREAL.latitude + 0.01, MONTREAL.longitude, new Date(now - MINUTE).toISOString());
    // With its token: a registered device takes no anonymous upload (issue 41 item 5).
    const token = { authorization: `Bearer ${registered.body.accessToken}` };
    expect((await server.post('/locations', { location: fix }, token)).status).toBe(200);
    active.push(phoneId);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), empty?.stop()]);
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`with no devices, says how to get one (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, empty.url, empty.adminToken, viewport);
      const state = page.locator('#empty-state');
      await state.waitFor();
      expect(await state.textContent()).toContain(`${empty.url}/track/`);
      // Each command is complete, with this server's address: a newcomer copies it as it is.
      const commands = await state.locator('code').allInnerTexts(); // as rendered, i.e. as copied
      expect(commands.slice(1)).toEqual([
        `npx waypost simulate --url ${empty.url}/locations --devices 5`,
        `npx waypost agent --source gpx:./examples/track.gpx --url ${empty.url}/locations --replay-speed 0 --exit-when-done`,
      ]);
      expect(await page.locator('#device-count').textContent()).toBe('0 devices');
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`opens on the active devices, named, each in the colour of its id (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      await expect.poll(() => markerOf(page, active.at(-1)!).count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
      expect(await page.locator('#empty-state').isHidden()).toBe(true);
      // Every active device in the first view, and not the whole ocean: Lisbon is out of it.
      for (const id of active) expect(await markerInView(page, id), id).toBe(true);
      expect(await markerInView(page, 'lisbon-old')).toBe(false);
      // The phone is listed by the name typed into the tracker, not by its uuid.
      const row = page.locator(`#devices li[data-device="${phoneId}"]`);
      expect(await row.locator('strong').textContent()).toBe('Ana’s phone');

      // Colours come from the ids: a new device sorting first changes none of them, live or reloaded.
      const before = await Promise.all(active.map((id) => colourOf(page, id)));
      expect(new Set(before).size).toBeGreaterThanOrEqual(active.length - 1);
      const fix = record('aaa-1', MONTREAL.latitude, MONTREAL.longitude + 0.01, new Date().toISOString());
      expect((await server.post('/locations', { location: fix, device_id: 'aaa-first' })).status).toBe(200);
      await expect.poll(() => markerOf(page, 'aaa-first').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
      expect(await Promise.all(active.map((id) => colourOf(page, id)))).toEqual(before);
      await page.reload();
      await page.locator('#status').filter({ hasText: 'live' }).waitFor();
      await expect.poll(() => markerOf(page, 'aaa-first').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
      expect(await Promise.all(active.map((id) => colourOf(page, id)))).toEqual(before);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('opens on the device named in the address (#device=<id>)', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, DESKTOP);
    await page.goto(`${server.url}/?#device=lisbon-old`); // a new page load, the session kept
    await page
      .locator('#records-title')
      .filter({ hasText: 'Records of lisbon-old' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => markerInView(page, 'lisbon-old'), { timeout: UI_TIMEOUT_MS }).toBe(true);
    expect(await markerInView(page, 'mtl-1')).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('on a phone, shows the map first and the lists in a sheet', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, PHONE);
    const map = (await page.locator('#map').boundingBox())!;
    expect(map.width).toBe(PHONE.width);
    expect(map.height).toBeGreaterThan(PHONE.height * 0.5);
    const sheet = (await page.locator('#sidebar').boundingBox())!;
    expect(sheet.y).toBeGreaterThan(PHONE.height * 0.5);
    expect(sheet.y + sheet.height).toBeLessThanOrEqual(PHONE.height + 1);
    // Nothing wider than the screen.
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Searching and picking a device opens its details and records in the sheet.
    await page.fill('#device-search', 'ana');
    await expect.poll(() => page.locator('#devices li').count()).toBe(1);
    await page.locator(`#devices li[data-device="${phoneId}"]`).click();
    await page.locator('#records-info').filter({ hasText: '1–1 of 1' }).waitFor();
    expect(await page.locator('#sidebar').getAttribute('class')).toContain('expanded');
    expect(await page.locator('#sidebar #records-panel').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
