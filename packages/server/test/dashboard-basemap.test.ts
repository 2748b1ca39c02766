import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, DESKTOP, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

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

/** An MBTiles file with the tiles around a point at every zoom (TMS rows), in this format. */
function mbtiles(path: string, format: string, lat: number, lon: number): void {
  const db = new Database(path);
  db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)`);
  db.prepare(`INSERT INTO metadata VALUES ('format', ?)`).run(format);
  const insert = db.prepare(`INSERT INTO tiles VALUES (?, ?, ?, ?)`);
  for (let z = 0; z <= 18; z++) {
    const n = 2 ** z;
    const x = Math.floor(((lon + 180) / 360) * n);
    const r = (lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
    for (let dx = -3; dx <= 3; dx++)
      for (let dy = -3; dy <= 3; dy++) {
        if (x + dx >= 0 && x + dx < n && y + dy >= 0 && y + dy < n) insert.run(z, x + dx, n - 1 - (y + dy), TILE);
      }
  }
  db.close();
}

describe('the basemap', () => {
  let offline: TestServer;
  let tiled: TestServer;
  let tiles: Server;
  const tileRequests: string[] = [];
  let browser: Browser;
  let local: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'waypost-tiles-'));

  beforeAll(async () => {
    mbtiles(join(dir, 'montreal.mbtiles'), 'png', 45.5017, -73.5535);
    mbtiles(join(dir, 'vector.mbtiles'), 'tiff', 45.5017, -73.5535);
    local = await startTestServer(backends[0]!, { tileFile: join(dir, 'montreal.mbtiles') });
    tiles = createServer((request, response) => {
      tileRequests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end(TILE);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const tileUrl = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
    [offline, tiled] = await Promise.all([startTestServer(backends[0]!), startTestServer(backends[0]!, { tileUrl })]);
    const fix = record('old-port', 45.5017, -73.5535, new Date().toISOString());
    for (const server of [offline, tiled, local]) {
      expect((await server.post('/locations', { location: fix, device_id: 'walker' })).status).toBe(200);
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([offline?.stop(), tiled?.stop(), local?.stop()]);
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => tiles?.close(resolve));
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`offline: outlines only where they are true, and a hint for real tiles (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, offline.url, offline.adminToken, viewport);
      const hint = page.locator('#basemap-hint');
      await hint.waitFor();
      expect(await hint.textContent()).toContain('--map-style none');
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

  it('from a local MBTiles file: tiles served by the server itself, none elsewhere', async () => {
    // Every request from the first one (the login page's too).
    const hosts = new Set<string>();
    const { page, problems } = await openDashboard(browser, local.url, local.adminToken, DESKTOP, {
      beforeLoad: (opened) => opened.on('request', (request) => hosts.add(new URL(request.url()).host)),
    });
    await expect
      .poll(() => page.locator('img.leaflet-tile-loaded[src^="/tiles/"]').count(), { timeout: UI_TIMEOUT_MS })
      .toBeGreaterThan(0);
    expect([...hosts]).toEqual([new URL(local.url).host]);
    expect(await page.locator('#basemap-hint').count()).toBe(0);
    expect((await fetch(`${local.url}/tiles/0/0/0`)).headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${local.url}/tiles/0/1/0`)).status).toBe(404);
    expect((await fetch(`${local.url}/tiles/10/0/0`)).status).toBe(404); // not near Montreal
    expect(problems).toEqual([]);
    await page.close();
    // Tiles no browser draws are refused at start, with the reason.
    await expect(startTestServer(backends[0]!, { tileFile: join(dir, 'vector.mbtiles') })).rejects.toThrow(/tiff/);
  });
});
