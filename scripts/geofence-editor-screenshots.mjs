// The geofence editor's screenshots in docs/ (shown in docs/dashboard-map.md), at 1440x900 and
// 390x844: the BUILT server on a temporary SQLite file with a local vector MBTiles city (no
// network), a van, a saved "Depot" circle, and a polygon being drawn and named with the editor.
// Run after `npm run build`:
//   node scripts/geofence-editor-screenshots.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOTH_SIZES, launchChromium } from './lib/chromium.mjs';
import { startServer } from '../packages/server/dist/index.js';
import { writeSyntheticCity } from './lib/synthetic-city.mjs';
import { SCREENSHOT_TIME, installPageClock, serverNow } from './lib/screenshot-clock.mjs';

const ROOT = new URL('..', import.meta.url);
const TOKEN = 'screenshot-admin';
const now = SCREENSHOT_TIME;

const dir = mkdtempSync(join(tmpdir(), 'waypost-screenshots-'));
writeSyntheticCity(join(dir, 'city.mbtiles'), 45.503, -73.56);
const server = await startServer({
  port: 0,
  adminToken: TOKEN,
  database: join(dir, 'waypost.db'),
  tileFile: join(dir, 'city.mbtiles'),
  now: serverNow,
});
const send = (path, body, headers = {}) =>
  fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
try {
  const drive = Array.from({ length: 60 }, (_, i) => ({
    uuid: `van-${i}`,
    timestamp: new Date(now - (60 - i) * 20_000).toISOString(),
    is_moving: true,
    odometer: i * 160,
    coords: { latitude: 45.499 + i * 0.00015, longitude: -73.572 + i * 0.0002, accuracy: 5, speed: 8, heading: 40 },
  }));
  await send('/locations', { location: drive, device_id: 'van-1' });
  await send(
    '/api/geofences',
    { identifier: 'Depot', latitude: 45.5, longitude: -73.57, radius: 150, loiteringDelay: 300_000 },
    { authorization: `Bearer ${TOKEN}` },
  );

  const browser = await launchChromium();
  for (const [name, viewport] of BOTH_SIZES) {
    const page = await browser.newPage({ viewport });
    await installPageClock(page);
    await page.goto(server.url + '/');
    await page.fill('#token-input', TOKEN);
    await page.click('#login button[type=submit]');
    await page.locator('#status').filter({ hasText: 'live' }).waitFor();
    await page.locator('#map.has-vector-basemap').waitFor({ timeout: 30_000 });
    await page.locator('#draw-polygon').click();
    const box = await page.locator('#map').boundingBox();
    for (const [fx, fy] of [
      [0.62, 0.25],
      [0.8, 0.3],
      [0.76, 0.55],
      [0.6, 0.5],
      [0.62, 0.25],
    ]) {
      await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 3 });
      await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    }
    await page.locator('#fence-form').waitFor();
    await page.fill('#fence-name', 'Loading bay');
    await page.fill('#fence-loitering', '120');
    await page.waitForTimeout(1500); // the street map's tiles
    if (name === '390x844') await page.locator('#fence-form').scrollIntoViewIfNeeded();
    await page.screenshot({ path: new URL(`docs/dashboard-geofence-editor-${name}.png`, ROOT).pathname });
    await page.close();
  }
  await browser.close();
  console.log('docs/dashboard-geofence-editor-{1440x900,390x844}.png written');
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
