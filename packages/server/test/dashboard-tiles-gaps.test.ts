import Database from 'better-sqlite3';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { openStorage } from './helpers/open-storage.js';
import { buildTrackTiles } from '../src/track-tiles/pyramid-builder.js';
import { readTrackTile } from '../src/track-tiles/tile-reader.js';

// The ledger's missing ranges over a track drawn from tiles (issue 32): a drive of 10 sequenced
// fixes whose #4-#6 never arrived, from a device counted as a long history. The tiles leave the
// hole undrawn (they are asked with the ledger's breaks) and a dashed bridge spans it, as on a
// track drawn from its records: never a solid line through minutes nobody saw, however short.
const T0 = Date.now() - 30 * 60_000;
const fix = (sequence: number) => ({
  ...record(`drive-${sequence}`, 45.5 + sequence * 0.001, -73.6, new Date(T0 + sequence * 20_000).toISOString()),
  sequence,
});

/** The web-map tile holding a point at zoom z. */
function tileOf(lat: number, lon: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return { x, y };
}

/**
 * Under the dashed bridge's middle, in the device's tile canvases: how many canvases hold the point
 * with their segments drawn, and the most opaque pixel around it (0: nothing drawn there).
 */
const underBridge = (page: Page) =>
  page.evaluate(`(() => {
    const gap = document.querySelector('path.gap[data-device="holey"]').getBoundingClientRect();
    const cx = gap.left + gap.width / 2;
    const cy = gap.top + gap.height / 2;
    let canvases = 0;
    let alpha = 0;
    for (const canvas of document.querySelectorAll('canvas.track-tile[data-device="holey"][data-segments]')) {
      const box = canvas.getBoundingClientRect();
      if (cx < box.left || cx >= box.right || cy < box.top || cy >= box.bottom) continue;
      canvases++;
      const px = Math.floor(((cx - box.left) * canvas.width) / box.width);
      const py = Math.floor(((cy - box.top) * canvas.height) / box.height);
      const { data } = canvas.getContext('2d').getImageData(px - 1, py - 1, 3, 3);
      for (let i = 3; i < data.length; i += 4) alpha = Math.max(alpha, data[i]);
    }
    return { canvases, alpha };
  })()`) as Promise<{ canvases: number; alpha: number }>;

describe('gaps in a track drawn from tiles', () => {
  let server: TestServer;
  let browser: Browser;
  let breaks = '';

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const arrived = [1, 2, 3, 7, 8, 9, 10].map(fix);
    expect((await server.post('/locations', { location: arrived, device_id: 'holey' })).status).toBe(200);
    // Counted as a long history: "all time" is drawn from tiles.
    const db = new Database(server.storage.database!);
    db.prepare(`UPDATE devices SET records = 250000 WHERE id = 'holey'`).run();
    db.close();
    breaks = `${T0 + 3 * 20_000}:${T0 + 7 * 20_000}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('draws a tile without its breaks rather than not at all when their hours overrun the budget', async () => {
    const storage = await openStorage(server.storage);
    try {
      // The drive's hours built (as two hours from now would): only a break sends an hour to the records.
      await buildTrackTiles(storage, Date.now() + 2 * 3_600_000);
      const request = { deviceId: 'holey', z: 16, ...tileOf(45.505, -73.6, 16), from: null, to: null };
      const hole: [number, number] = [T0 + 3 * 20_000, T0 + 7 * 20_000];
      const whole = await readTrackTile(storage, request, 3);
      const cut = await readTrackTile(storage, { ...request, breaks: [hole] });
      expect(cut.length).toBeLessThan(whole.length);
      // Its hour's 7 positions are over a budget of 3: the tile as without the break.
      expect(await readTrackTile(storage, { ...request, breaks: [hole] }, 3)).toEqual(whole);
    } finally {
      await storage.close();
    }
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`bridges the hole dashed over tiles that leave it undrawn (${label})`, async () => {
      // Every request from the first one: the device's tiles are asked for as the page opens.
      const asked: string[] = [];
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        beforeLoad: (opened) => opened.on('request', (request) => asked.push(request.url())),
      });
      await page.locator('#devices li[data-device="holey"]').click({ timeout: UI_TIMEOUT_MS });
      const gap = page.locator('path.gap[data-device="holey"]');
      await gap.waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS }); // (a north-south line: no width, never "visible")
      expect(await gap.count()).toBe(1);
      expect(await gap.getAttribute('stroke-dasharray')).toBe('2 7');
      await gap.dispatchEvent('mouseover');
      await page
        .locator('.leaflet-tooltip')
        .filter({ hasText: '3 records missing (#4–#6)' })
        .waitFor({ timeout: UI_TIMEOUT_MS });
      // Drawn from tiles, not from the records; the tiles were asked with the ledger's breaks.
      expect(await page.locator('path.trip[data-device="holey"]').count()).toBe(0);
      await expect
        .poll(async () => (await underBridge(page)).canvases, {
          timeout: UI_TIMEOUT_MS,
          message: 'a tile under the hole',
        })
        .toBeGreaterThan(0);
      expect((await underBridge(page)).alpha).toBe(0);
      const tiles = asked.filter((url) => url.includes('/devices/holey/track-tiles/'));
      expect(tiles.length).toBeGreaterThan(0);
      for (const url of tiles) expect(new URL(url).searchParams.get('breaks')).toBe(breaks);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }
});

describe.each(backends)('the tile route with breaks ($name)', (backend) => {
  let server: TestServer;
  const breaks = `${T0 + 3 * 20_000}:${T0 + 7 * 20_000}`;
  beforeAll(async () => {
    server = await startTestServer(backend);
    const arrived = [1, 2, 3, 7, 8, 9, 10].map(fix);
    expect((await server.post('/locations', { location: arrived, device_id: 'holey' })).status).toBe(200);
  });
  afterAll(async () => server?.stop());

  it("leaves out a segment across a break, and places the hole's edges", async () => {
    const gaps = await server.admin('/api/dashboard/devices/holey/gaps');
    expect(gaps.body.gaps[0]).toMatchObject({
      fromPoint: [45.5 + 3 * 0.001, -73.6],
      toPoint: [45.5 + 7 * 0.001, -73.6],
    });
    // The tile under the hole's middle: drawn through without the breaks, left out with them.
    const { x, y } = tileOf(45.505, -73.6, 16);
    const path = `/api/dashboard/devices/holey/track-tiles/16/${x}/${y}`;
    const whole = (await server.admin(path)).body.segments as number[];
    const cut = (await server.admin(`${path}?breaks=${breaks}`)).body.segments as number[];
    const segments = (flat: number[]) =>
      Array.from({ length: flat.length / 4 }, (_, i) => flat.slice(i * 4, i * 4 + 4).join());
    expect(cut.length).toBeLessThan(whole.length);
    expect(segments(whole)).toEqual(expect.arrayContaining(segments(cut)));
    const bad = await server.admin(`${path}?breaks=9:1`);
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETER']);
  });
});
