import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { launchChromium, logInThroughForm } from './helpers/browser.js';
import { BOTH_SIZES, DESKTOP, keepLocal, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// Every vehicle readable on the map: one dot per device at its newest fix, ringed in its state's
// colour, and a label with its name, heading and age; the selected one on top, the others dimmed;
// geofences named. Fix times are relative to the real clock, which the browser's ages read.
const LAT = 48.85;
const LON = 2.35;
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

/**
 * Two fixes `seconds` apart, the newest `age` s ago, the second `east` degrees east of the first;
 * `moving` is what the device said (is_moving), which the server names its state from.
 */
function drive(id: string, age: number, seconds: number, east: number, north = 0, lat = LAT, moving = true) {
  return [
    { ...record(`${id}-a`, lat, LON, ago(age + seconds)), is_moving: moving },
    { ...record(`${id}-b`, lat + north, LON + east, ago(age)), is_moving: moving },
  ];
}

/** In the page: the palette against the state colours (CIE76 ΔE in Lab), the closest pair. */
const CLOSEST_PAIR = `(async () => {
  const { PALETTE } = await import('/assets/colour.js');
  const { STATE_COLOURS } = await import('/assets/vehicle-state.js');
  const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const lab = (hex) => {
    const [r, g, b] = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
    const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    const [x, y, z] = [(r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047, r * 0.2126 + g * 0.7152 + b * 0.0722,
      (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883].map(f);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  let closest = Infinity;
  for (const p of PALETTE) for (const s of Object.values(STATE_COLOURS)) {
    const [a, b] = [lab(p), lab(s)];
    closest = Math.min(closest, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
  }
  return closest;
})()`;

describe('vehicles on the map', () => {
  let server: TestServer;
  let browser: Browser;

  // The server's clock, moved on by the test that lets the fleet go quiet.
  let serverAhead = 0;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!, { now: () => Date.now() + serverAhead });
    const fleet: [string, string, ReturnType<typeof drive>, string?][] = [
      // 60 m east in 20 s (3 m/s), 30 s ago: moving, heading east.
      ['truck-1', 'Delivery truck', drive('truck-1', 30, 20, 0.0008)],
      // The same spot twice, the newest 3 min ago: parked.
      ['van-2', 'Night van', drive('van-2', 180, 60, 0, 0, LAT + 0.004, false)],
      // A fix from 2 hours ago, uploaded just now: heard from, so parked, not silent.
      ['car-3', 'Pool car', drive('car-3', 7200, 30, 0.0005, 0, LAT - 0.004, false)],
      // Moving, but its SDK says tracking is stopped: stopped, never "moving".
      ['bike-4', 'Courier bike', drive('bike-4', 40, 20, 0.0008, 0.001), 'track=?0, wifionly=?0, net=wifi'],
      // Wi-Fi only, last on Wi-Fi: once quiet, it waits for Wi-Fi (likely), never just "silent".
      ['wagon-5', 'Wagon', drive('wagon-5', 50, 20, 0.0008, -0.002), 'track, wifionly, net=wifi, motion=moving'],
    ];
    // Each registered (named), so each uploads with its token (issue 41 item 5).
    const tokens = new Map<string, Record<string, string>>();
    for (const [id, name, fixes, report] of fleet) {
      const registered = await server.post('/auth/register', { uuid: id, name });
      expect(registered.status).toBe(200);
      tokens.set(id, { authorization: `Bearer ${registered.body.accessToken}` });
      const headers = { ...tokens.get(id), ...(report ? { 'waypost-health': report } : {}) };
      expect((await server.post('/locations', { location: fixes, device_id: id }, headers)).status).toBe(200);
    }
    // Forty older fixes of the car: a records table taller than a phone's sheet.
    const history = Array.from({ length: 40 }, (_, i) =>
      record(`car-3-old-${i}`, LAT - 0.004, LON, ago(9000 + i * 60)),
    );
    expect((await server.post('/locations', { location: history }, tokens.get('car-3'))).status).toBe(200);
    const depot = { identifier: 'North depot', latitude: LAT + 0.002, longitude: LON, radius: 80 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: depot })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`names each vehicle with its state, heading and age; the selected one on top (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      const labelOf = (id: string) => page.locator(`.vehicle-label[data-device="${id}"]`);
      for (const [id, name, state] of [
        ['truck-1', 'Delivery truck', 'live'],
        ['van-2', 'Night van', 'parked'],
        ['car-3', 'Pool car', 'parked'],
        ['bike-4', 'Courier bike', 'stopped'],
      ] as const) {
        await labelOf(id).waitFor({ timeout: UI_TIMEOUT_MS });
        expect(await labelOf(id).locator('.vehicle-name').textContent()).toBe(name);
        expect(await labelOf(id).getAttribute('data-state')).toBe(state);
        expect(await labelOf(id).locator('.state').textContent()).toBe(state);
        // The device list says the same state (one source: the server's).
        expect(await page.locator(`#devices li[data-device="${id}"]`).getAttribute('data-state')).toBe(state);
        // Legible: the whole label inside the map, not clipped to nothing.
        const box = await labelOf(id).boundingBox();
        expect(box!.width).toBeGreaterThan(60);
        expect(box!.height).toBeGreaterThanOrEqual(14);
      }
      // (30 s at setup; the second viewport's page opens some 20 s later on a shared machine and
      // crosses into "1 min." from 45 s on)
      expect(await labelOf('truck-1').locator('.vehicle-age').textContent()).toMatch(
        /^(\d+ sec\. ago|now|1 min\. ago)$/,
      );
      // (3 minutes at setup; a slow machine may have crossed into the 4th since)
      expect(await labelOf('van-2').locator('.vehicle-age').textContent()).toMatch(/^[34] min\. ago$/);
      expect(await labelOf('car-3').locator('.vehicle-age').textContent()).toBe('2 hr. ago');
      // Heading east (about 90°) for the truck; no arrow for a vehicle that has not moved.
      const rotation = await labelOf('truck-1').locator('.heading').getAttribute('style');
      expect(Number(/rotate\((\d+)deg\)/.exec(rotation ?? '')?.[1])).toBeGreaterThan(85);
      expect(Number(/rotate\((\d+)deg\)/.exec(rotation ?? '')?.[1])).toBeLessThan(95);
      expect(await labelOf('van-2').locator('.heading').isHidden()).toBe(true);
      // The ring is the state's colour, the fill the device's; no device colour is a state's.
      const dot = (id: string) => page.locator(`path.device-marker[data-device="${id}"]`);
      expect(await dot('truck-1').getAttribute('stroke')).toBe('#15803d');
      expect(await dot('van-2').getAttribute('stroke')).toBe('#b45309');
      expect(await dot('car-3').getAttribute('stroke')).toBe('#b45309');
      expect((await page.evaluate(CLOSEST_PAIR)) as number).toBeGreaterThan(40);
      // The geofence is named on the map.
      expect(await page.locator('.geofence-label').allTextContents()).toContain('North depot');

      // Picking the van: it is drawn over the others, which step back.
      await page.locator('#devices li[data-device="van-2"]').click({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => labelOf('van-2').getAttribute('class'), { timeout: UI_TIMEOUT_MS }).toContain('selected');
      expect(await labelOf('truck-1').getAttribute('class')).toContain('dimmed');
      expect(await page.locator('path.trip[data-device="van-2"]').getAttribute('data-emphasis')).toBe('selected');
      expect(await page.locator('path.trip[data-device="truck-1"]').getAttribute('data-emphasis')).toBe('dimmed');
      const order = await page.evaluate(
        `[...document.querySelectorAll('path.device-marker')].map((p) => p.getAttribute('data-device'))`,
      );
      expect((order as string[]).at(-1)).toBe('van-2'); // the last drawn is on top
      expect(page.url()).toContain('#device=van-2');
      // A record's JSON opens where it can be read (on a phone: not below the fold of the sheet).
      await page.evaluate(`window.location.hash = '#device=car-3'`);
      await page.locator('#records-info').filter({ hasText: 'of 42' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.locator('#records tbody tr').first().click({ timeout: UI_TIMEOUT_MS });
      await expect
        .poll(
          async () => {
            const box = (await page.locator('#record-json').boundingBox())!;
            return box.y >= 0 && box.y + Math.min(box.height, 100) <= viewport.height;
          },
          { timeout: UI_TIMEOUT_MS },
        )
        .toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('shows what the server names once the fleet goes quiet, on the map as in the list', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.clock.install();
    const problems: string[] = [];
    await keepLocal(page, problems);
    page.on('pageerror', (error) => problems.push(error.message));
    await logInThroughForm(page, server.url, server.adminToken);
    const stateOf = (id: string) => page.locator(`.vehicle-label[data-device="${id}"]`).getAttribute('data-state');
    const rowOf = (id: string) => page.locator(`#devices li[data-device="${id}"]`);
    await expect.poll(() => stateOf('truck-1'), { timeout: UI_TIMEOUT_MS }).toBe('live');
    // Two hours on the server's clock: it names each quiet device from what it said last.
    serverAhead = 2 * 3600_000;
    try {
      await page.clock.fastForward('02:00:00'); // the half-minute refresh runs on the way
      await expect.poll(() => stateOf('truck-1'), { timeout: UI_TIMEOUT_MS }).toBe('silent');
      for (const [id, state, words] of [
        ['truck-1', 'silent', 'Silent'],
        ['van-2', 'parked', 'Parked'],
        ['bike-4', 'stopped', 'Tracking stopped'],
        ['wagon-5', 'waiting', 'Waiting for Wi-Fi'],
      ] as const) {
        expect([id, await stateOf(id)]).toEqual([id, state]);
        expect([id, await rowOf(id).getAttribute('data-state')]).toEqual([id, state]);
        expect(await rowOf(id).locator('.health-state').textContent()).toContain(words);
      }
      expect(await page.locator('path.device-marker[data-device="truck-1"]').getAttribute('stroke')).toBe('#6b7280');
      expect(await page.locator('.vehicle-label[data-device="van-2"] .vehicle-age').textContent()).toBe('2 hr. ago');
    } finally {
      serverAhead = 0;
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens on the device in the address, and follows the address as it changes', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, DESKTOP);
    await page.goto(`${server.url}/#device=car-3`);
    const trip = (id: string) => page.locator(`path.trip[data-device="${id}"]`);
    await expect.poll(() => trip('car-3').getAttribute('data-emphasis'), { timeout: UI_TIMEOUT_MS }).toBe('selected');
    expect(await page.locator('#devices li.selected').getAttribute('data-device')).toBe('car-3');
    // The same open page, another address: the selection follows.
    await page.evaluate(`window.location.hash = '#device=truck-1'`);
    await expect.poll(() => trip('truck-1').getAttribute('data-emphasis'), { timeout: UI_TIMEOUT_MS }).toBe('selected');
    expect(await trip('car-3').getAttribute('data-emphasis')).toBe('dimmed');
    expect(await page.locator('#devices li.selected').getAttribute('data-device')).toBe('truck-1');
    // A zoom reloads the tracks (new lines): the highlight stays.
    const reloaded = page.waitForResponse((response) => response.url().includes('/devices/truck-1/track?'), {
      timeout: UI_TIMEOUT_MS,
    });
    await page.locator('.leaflet-control-zoom-out').click();
    await reloaded;
    await expect.poll(() => trip('truck-1').getAttribute('data-emphasis'), { timeout: UI_TIMEOUT_MS }).toBe('selected');
    expect(problems).toEqual([]);
    await page.close();
  });
});
