import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { DESKTOP, openDashboard, PHONE, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const TILE = readFileSync(fileURLToPath(new URL('../public/track/icon-192.png', import.meta.url)));

/** In the page: the outline's lines, checked for what drew bands (antimeridian and polar cut edges). */
const OUTLINE_CHECK = `(async () => {
  const { outlineLines } = await import('/assets/basemap.js');
  const world = await (await fetch('/vendor/world-atlas/countries-50m.json')).json();
  const lines = outlineLines(world);
  let bad = 0;
  for (const line of lines)
    for (let i = 1; i < line.length; i++) {
      const [a, b] = [line[i - 1], line[i]];
      if (Math.abs(a[0] - b[0]) > 180 || (Math.abs(a[0]) > 179.9 && Math.abs(b[0]) > 179.9) || (a[1] < -84 && b[1] < -84)) bad++;
    }
  return { lines: lines.length, bad };
})()`;

describe('the basemap', () => {
  let offline: TestServer;
  let tiled: TestServer;
  let tiles: Server;
  const tileRequests: string[] = [];
  let browser: Browser;

  beforeAll(async () => {
    tiles = createServer((request, response) => {
      tileRequests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end(TILE);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const tileUrl = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
    [offline, tiled] = await Promise.all([startTestServer(backends[0]!), startTestServer(backends[0]!, { tileUrl })]);
    const fix = record('old-port', 45.5017, -73.5535, new Date().toISOString());
    for (const server of [offline, tiled]) {
      expect((await server.post('/locations', { location: fix, device_id: 'walker' })).status).toBe(200);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([offline?.stop(), tiled?.stop()]);
    await new Promise((resolve) => tiles?.close(resolve));
  });

  for (const [label, viewport] of [
    ['1440x900', DESKTOP],
    ['390x844', PHONE],
  ] as const) {
    it(`offline: outlines only where they are true, and a hint for real tiles (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, offline.url, offline.adminToken, viewport);
      const hint = page.locator('#basemap-hint');
      await hint.waitFor();
      expect(await hint.textContent()).toContain('--tile-url');
      // Opened on the one device at city zoom: the coarse outline is hidden, and the hint says why.
      await expect
        .poll(() => page.locator('#map').getAttribute('class'), { timeout: UI_TIMEOUT_MS })
        .toContain('outline-hidden');
      expect(await hint.getAttribute('class')).toContain('coarse');
      // Zoomed out to the world: the outline is back, lines only (no land filled over water).
      // (one click per try: Leaflet ignores clicks while it animates a zoom)
      await expect
        .poll(
          async () => {
            await page.locator('.leaflet-control-zoom-out').dispatchEvent('click');
            return page.locator('#map').getAttribute('class');
          },
          { timeout: UI_TIMEOUT_MS },
        )
        .not.toContain('outline-hidden');
      expect(await page.locator('.leaflet-basemap-pane canvas').count()).toBe(1);
      const outline = (await page.evaluate(OUTLINE_CHECK)) as { lines: number; bad: number };
      expect(outline.lines).toBeGreaterThan(100);
      expect(outline.bad).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`with --tile-url: real tiles, and no hint (${label})`, async () => {
      tileRequests.length = 0;
      const { page, problems } = await openDashboard(browser, tiled.url, tiled.adminToken, viewport);
      await expect
        .poll(() => page.locator('img.leaflet-tile-loaded').count(), { timeout: UI_TIMEOUT_MS })
        .toBeGreaterThan(0);
      expect(tileRequests.some((url) => /^\/1[3-5]\/\d+\/\d+\.png$/.test(url))).toBe(true); // city zoom
      expect(await page.locator('#basemap-hint').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
