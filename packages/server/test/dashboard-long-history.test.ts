// A long history on the dashboard (issue 32): a device with 250,000 records over two months is
// drawn from the track tiles (canvases of its colour, no /track request reading every record),
// at 1440x900 and 390x844; a short range of the same device is the usual line again.
import Database from 'better-sqlite3';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { openStorage } from './helpers/open-storage.js';
import { MARK_EVERY_STORED_HOUR } from '../src/track-tiles/schema.js';
import { buildTrackTiles } from '../src/track-tiles/pyramid-builder.js';

const RECORDS = 250_000;
const START = Date.UTC(2024, 0, 1);

/** Fix i: one every 20 s, driving round a 2 km loop near Munich, an hour on and half an hour off. */
function fix(i: number) {
  const trip = Math.floor(i / 180);
  const t = START + i * 20_000 + trip * 30 * 60_000;
  const angle = ((i % 180) / 180) * 2 * Math.PI + trip;
  return { t, lat: 48.1 + 0.018 * Math.sin(angle), lon: 11.5 + 0.027 * Math.cos(angle) };
}

/** The share of the device's track canvases' pixels that are drawn (not transparent), read in the page. */
const drawnShare = (page: Page, device: string) =>
  page.evaluate(`(() => {
    let drawn = 0;
    let all = 0;
    for (const canvas of document.querySelectorAll('canvas.track-tile[data-device="${device}"]')) {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
      all += data.length / 4;
    }
    return all === 0 ? 0 : drawn / all;
  })()`) as Promise<number>;

describe('a long history on the dashboard', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // The device registers through the API; its history goes straight into the database (250,000
    // uploads would take minutes), the pyramid then built as the server's worker would.
    const last = fix(RECORDS - 1);
    const newest = record('newest', last.lat, last.lon, new Date(last.t + 1000).toISOString());
    expect((await server.post('/locations', { location: newest, device_id: 'truck' })).status).toBe(200);
    const db = new Database(server.storage.database!);
    const insert = db.prepare(
      `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record) VALUES ('truck', ?, ?, ?, ?, ?, '{}')`,
    );
    db.transaction(() => {
      for (let i = 0; i < RECORDS - 1; i++) {
        const f = fix(i);
        insert.run(`r-${i}`, f.t, f.lat, f.lon, f.t);
      }
    })();
    db.prepare(`UPDATE devices SET records = ? WHERE id = 'truck'`).run(RECORDS);
    db.prepare(MARK_EVERY_STORED_HOUR).run(); // written past the server: marked as the pyramid's start does
    db.close();
    const storage = await openStorage(server.storage);
    expect(await buildTrackTiles(storage, Date.now())).toBeGreaterThan(1000);
    await storage.close();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`draws all of it from tiles, never asking for every record (${label})`, async () => {
      // Every request from the first one: the device's track is asked for as the page opens.
      const asked: string[] = [];
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        beforeLoad: (opened) => opened.on('request', (request) => asked.push(new URL(request.url()).pathname)),
      });
      // The map fits the device (its newest position, on the loop) and draws the tiles in view.
      await expect
        .poll(() => page.locator('canvas.track-tile[data-device="truck"][data-segments]').count(), {
          timeout: UI_TIMEOUT_MS,
        })
        .toBeGreaterThan(0);
      await expect.poll(() => drawnShare(page, 'truck'), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0.001);
      expect(asked.some((path) => path.includes('/devices/truck/track-tiles/'))).toBe(true);
      expect(asked.filter((path) => path.endsWith('/devices/truck/track'))).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
