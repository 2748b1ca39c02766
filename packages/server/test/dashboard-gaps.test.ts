import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// The ledger's missing ranges on the map: a drive of 10 sequenced fixes whose #4-#6 never
// arrived is drawn as two solid pieces and a dashed bridge over the hole, never a straight solid
// line through it.
const T0 = Date.now() - 30 * 60_000;
const fix = (sequence: number) => ({
  ...record(`drive-${sequence}`, 45.5 + sequence * 0.001, -73.6, new Date(T0 + sequence * 20_000).toISOString()),
  sequence,
});

describe('gaps in a track', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const arrived = [1, 2, 3, 7, 8, 9, 10].map(fix);
    expect((await server.post('/locations', { location: arrived, device_id: 'holey' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('places each missing range in time (the records around it)', async () => {
    const answer = await server.admin('/api/dashboard/devices/holey/gaps');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      gaps: [
        {
          first: 4,
          last: 6,
          missing: 3,
          // Numbers sent without a numbering's epoch (issue 39).
          epoch: null,
          from: T0 + 3 * 20_000,
          to: T0 + 7 * 20_000,
          // Where the hole's edges were, for a map drawn from tiles.
          fromPoint: [45.5 + 3 * 0.001, -73.6],
          toPoint: [45.5 + 7 * 0.001, -73.6],
        },
      ],
      truncated: false,
    });
    expect((await server.admin('/api/dashboard/devices/nobody/gaps')).status).toBe(404);
    // The track is cut where it is told; a malformed cut is a 400 naming it.
    const cut = await server.admin(`/api/dashboard/devices/holey/track?zoom=18&breaks=${T0 + 60_000}:${T0 + 140_000}`);
    // Two pieces, the hole's edges kept as their ends (a straight drive simplifies to its ends).
    const ends = cut.body.trips.map((trip: number[][]) => [trip[0]![2], trip[trip.length - 1]![2]]);
    expect(ends).toEqual([
      [T0 + 20_000, T0 + 60_000],
      [T0 + 140_000, T0 + 200_000],
    ]);
    const bad = await server.admin('/api/dashboard/devices/holey/track?breaks=5:1');
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETER']);
    expect((await fetch(`${server.url}/api/dashboard/devices/holey/gaps`)).status).toBe(401);
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`draws the hole dashed between two solid pieces (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      const gap = page.locator('path.gap[data-device="holey"]');
      // (At the world view the line is simplified to its ends; the fitted view draws every fix.)
      await expect
        .poll(() => page.locator('path.trip[data-device="holey"]').count(), { timeout: UI_TIMEOUT_MS })
        .toBe(2);
      expect(await gap.count()).toBe(1);
      expect(await gap.getAttribute('stroke-dasharray')).toBe('2 7');
      await gap.dispatchEvent('mouseover');
      await page
        .locator('.leaflet-tooltip')
        .filter({ hasText: '3 records missing (#4–#6)' })
        .waitFor({ timeout: UI_TIMEOUT_MS });
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
