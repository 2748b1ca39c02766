import Database from 'better-sqlite3';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { MAX_DIRTY } from '../src/track-tiles/tile-reader.js';

// A long history whose track pyramid is still being built (issue 32): the tile route answers 503
// TRACK_TILES_BUILDING with a Retry-After, and the dashboard must not leave the map empty. It draws
// the device from its records meanwhile and says so; after the Retry-After (the page's clock moved
// on) a tile answers and the device is drawn from tiles again.
const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('a long history whose tiles are being built', () => {
  let server: TestServer;
  let browser: Browser;
  const now = Date.now();

  /** More stale hours than the reader serves with, all in the future: no build pass takes them. */
  function markBuilding(stale: boolean): void {
    const db = new Database(server.storage.database!);
    db.prepare(`DELETE FROM track_tile_dirty WHERE device_id = 'truck' AND bucket > ?`).run(Math.floor(now / HOUR));
    if (stale) {
      const insert = db.prepare(
        `INSERT INTO track_tile_dirty (device_id, tier, bucket, mark) VALUES ('truck', 0, ?, 1)`,
      );
      const first = Math.floor(now / HOUR) + 10;
      db.transaction(() => {
        for (let k = 0; k <= MAX_DIRTY; k++) insert.run(first + k);
      })();
    }
    db.close();
  }

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // A drive over the last two hours; the device counts as a long history (its count is what the
    // dashboard reads to choose tiles), so "all time" is drawn from tiles.
    const fixes = Array.from({ length: 60 }, (_, i) =>
      record(`t-${i}`, 48.1 + i * 0.001, 11.5 + (i % 2) * 0.002, new Date(now - 2 * HOUR + i * MINUTE).toISOString()),
    );
    expect((await server.post('/locations', { location: fixes, device_id: 'truck' })).status).toBe(200);
    const db = new Database(server.storage.database!);
    db.prepare(`UPDATE devices SET records = 250000 WHERE id = 'truck'`).run();
    db.close();
    browser = await launchChromium();
  });
  beforeEach(() => markBuilding(true));
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('answers 503 TRACK_TILES_BUILDING with a Retry-After while too much is stale', async () => {
    const answer = await fetch(`${server.url}/api/dashboard/devices/truck/track-tiles/0/0/0`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '30']);
    expect(((await answer.json()) as { code: string }).code).toBe('TRACK_TILES_BUILDING');
    markBuilding(false);
    expect((await server.admin('/api/dashboard/devices/truck/track-tiles/0/0/0')).status).toBe(200);
  });

  const trips = (page: Page) => page.locator('path.trip[data-device="truck"]').count();
  const drawnTiles = (page: Page) => page.locator('canvas.track-tile[data-device="truck"][data-segments]').count();

  for (const [label, viewport] of BOTH_SIZES) {
    it(`draws the records meanwhile, says so, and goes back to tiles after the Retry-After (${label})`, async () => {
      // The page's own clock, so the Retry-After passes without waiting for it; every tile answer
      // from the first load on.
      const tileAnswers: number[] = [];
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        beforeLoad: async (opened) => {
          await opened.clock.install();
          opened.on('response', (response) => {
            if (response.url().includes('/devices/truck/track-tiles/')) tileAnswers.push(response.status());
          });
        },
      });
      const note = page.locator('#tiles-status');
      await note
        .filter({ hasText: 'truck: track tiles are being built' })
        .waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
      expect(await note.textContent()).toContain('drawn from its records meanwhile (tiles tried again at');
      await expect.poll(() => trips(page), { timeout: UI_TIMEOUT_MS, message: 'the /track line' }).toBeGreaterThan(0);
      expect(await page.locator('canvas.track-tile[data-device="truck"]').count()).toBe(0);
      expect(tileAnswers).toContain(503);

      // Built meanwhile: the next try, after the Retry-After, gets a tile and the tiles come back.
      markBuilding(false);
      await page.clock.fastForward(31_000);
      await expect.poll(() => drawnTiles(page), { timeout: UI_TIMEOUT_MS, message: 'tiles drawn' }).toBeGreaterThan(0);
      expect(await trips(page)).toBe(0);
      await expect.poll(() => note.isHidden(), { timeout: UI_TIMEOUT_MS, message: 'the note gone' }).toBe(true);
      expect(tileAnswers).toContain(200);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
