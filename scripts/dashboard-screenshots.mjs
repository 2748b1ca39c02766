// The dashboard's screenshots in docs/ (shown in docs/dashboard.md), at 1440x900 and 390x844: the BUILT
// server on a temporary SQLite file, a small fleet around Montreal (the example GPX walk replayed
// today with records missing from its ledger, six vans, a phone enrolled by name, a named depot
// geofence), the walker selected with its trips, the gap drawn dashed, delivery health and
// playback. The street map is a synthetic city in a local vector MBTiles file (--tiles: the
// built-in style, no network), since a screenshot run must not depend on a tile service. Run
// after `npm run build`:
//   node scripts/dashboard-screenshots.mjs
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOTH_SIZES, launchChromium } from './lib/chromium.mjs';
import { startServer } from '../packages/server/dist/index.js';
import { writeSyntheticCity } from './lib/synthetic-city.mjs';
import { SCREENSHOT_TIME, installPageClock, serverNow } from './lib/screenshot-clock.mjs';

const ROOT = new URL('..', import.meta.url);
const TOKEN = 'screenshot-admin';
const MINUTE = 60_000;
const now = SCREENSHOT_TIME;

const fix = (uuid, lat, lon, t, extra = {}) => ({
  uuid,
  timestamp: new Date(t).toISOString(),
  is_moving: true,
  odometer: 0,
  coords: { latitude: lat, longitude: lon, accuracy: 5, speed: 8, heading: 0, altitude: 20 },
  activity: { type: 'in_vehicle', confidence: 90 },
  battery: { level: 0.8, is_charging: false },
  ...extra,
});

const gpx = readFileSync(new URL('examples/track.gpx', ROOT), 'utf8');
const walk = [...gpx.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)">/g)].map((m) => [Number(m[1]), Number(m[2])]);

const dir = mkdtempSync(join(tmpdir(), 'waypost-screenshots-'));
writeSyntheticCity(join(dir, 'city.mbtiles'), 45.503, -73.56);
const server = await startServer({
  port: 0,
  adminToken: TOKEN,
  database: join(dir, 'waypost.db'),
  tileFile: join(dir, 'city.mbtiles'),
  now: serverNow,
});
const post = (body, path = '/locations') =>
  fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
try {
  // The walker: the example walk twice today, an hour apart (two trips and a stop), numbered.
  const walks = [0, 1].flatMap((round) =>
    walk.map(([lat, lon], i) =>
      fix(`walk-${round}-${i}`, lat, lon, now - (3 - round) * 60 * MINUTE + i * 5000, {
        sequence: round * walk.length + i + 1,
        activity: { type: 'walking', confidence: 90 },
        coords: { latitude: lat, longitude: lon, accuracy: 4, speed: 1.4, heading: 0, altitude: 12 },
      }),
    ),
  );
  // Records 60 to 89 of the first walk never arrive: the ledger's gap, drawn dashed.
  const arrived = walks.filter((record) => record.sequence < 60 || record.sequence > 89);
  await post({ location: arrived, device_id: 'old-port-walker' });
  await fetch(server.url + '/api/geofences', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ identifier: 'Depot', latitude: 45.507, longitude: -73.566, radius: 120 }),
  });
  // Six vans driving across the city, each its own line.
  for (let v = 0; v < 6; v++) {
    const angle = (v / 6) * 2 * Math.PI;
    const drive = Array.from({ length: 120 }, (_, i) =>
      fix(
        `van-${v}-${i}`,
        45.5 + Math.sin(angle) * (0.004 + i * 0.00025),
        -73.57 + Math.cos(angle) * (0.006 + i * 0.00035) + Math.sin(i / 9) * 0.001,
        now - (130 - i) * 20_000 - v * MINUTE,
      ),
    );
    await post({ location: drive, device_id: `van-${v + 1}` });
  }
  // A phone enrolled on the tracker page with its name.
  const phone = await (
    await post(
      { uuid: '6f2d9c1e-8b1a-4c55-9e0f-2a7d3c4b5e61', name: 'Ana’s phone', model: 'Linux armv8l' },
      '/auth/register',
    )
  ).json();
  await post({
    location: [fix('ana-1', 45.508, -73.554, now - 2 * MINUTE), fix('ana-2', 45.5084, -73.5532, now - MINUTE)],
    device_id: phone.deviceId,
  });

  const browser = await launchChromium();
  for (const [name, viewport] of BOTH_SIZES) {
    const page = await browser.newPage({ viewport });
    await installPageClock(page);
    await page.goto(server.url + '/');
    await page.fill('#token-input', TOKEN);
    await page.click('#login button[type=submit]');
    await page.locator('#status').filter({ hasText: 'live' }).waitFor();
    await page.locator('#map.has-vector-basemap').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: new URL(`docs/dashboard-fleet-${name}.png`, ROOT).pathname });
    await page.locator('#devices li[data-device="old-port-walker"]').click();
    await page.locator('#trips .trips-table tbody tr').first().waitFor();
    await page.locator('#health .health').waitFor();
    await page.locator('path.gap').first().waitFor({ state: 'attached' });
    await page.waitForTimeout(1500); // the street map's tiles at the new view
    await page
      .locator('#playback-slider')
      .fill(String(Math.round(Number(await page.locator('#playback-slider').getAttribute('max')) * 0.3)));
    if (name === '390x844') {
      await page.locator('#sheet-toggle').click(); // the map with the sheet at its peek
      await page.waitForTimeout(400); // the sheet's slide
    }
    await page.screenshot({ path: new URL(`docs/dashboard-device-${name}.png`, ROOT).pathname });
    await page.close();
  }
  await browser.close();
  console.log('docs/dashboard-{fleet,device}-{1440x900,390x844}.png written');
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
