import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// A geofence's name never covers a vehicle's (issue 42): vehicles park at a depot's centre, where a
// fence's name used to sit over the vehicle's label. Both are read on the map: what the browser
// paints on top at the centre of each (elementFromPoint) must be that label itself.
const LAT = 52.52;
const LON = 13.4;
const YARD_LAT = LAT + 0.006; // a second depot some 670 m north
/** A third depot, some 540 m east, its name drawn 100 m north of its centre. */
const GATE_FENCE = { identifier: 'East gate', latitude: LAT + 0.003, longitude: LON + 0.008, radius: 100 };
/**
 * A car parked just outside that depot's gate: 23 m north of its top edge and 116 m west of its
 * middle, 8 px and 40 px at the zoom a picked vehicle is shown at (15: 2.9 m a pixel here), so its
 * name meets the fence's. North of the name's foot, it is not drawn over it by Leaflet's own order
 * of markers (the southern one on top), only by the names' pane.
 */
const GATE = [LAT + 0.003 + 100 / 111_195 + 0.00021, LON + 0.008 - 0.0017] as const;
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
/** Two fixes at the same spot, the device saying it is still: parked there. */
const parked = (id: string, lat: number, lon: number) =>
  [300, 240].map((age, i) => ({ ...record(`${id}-${i}`, lat, lon, ago(age)), is_moving: false }));

/**
 * In the page: what is on top at the centre of the device's name, and at the centre of each named
 * geofence's name ('shown' when it is that name itself, else what covers it); `meets`: the names
 * whose box holds the centre of the device's name (one drawn over the other there).
 */
const onTop = (device: string, fences: string[]) => `(() => {
  // Leaflet leaves a non-interactive marker out of hit-testing (pointer-events: none); letting the
  // fence names in makes elementFromPoint answer what is painted on top, names included.
  for (const icon of document.querySelectorAll('.geofence-label-icon')) icon.style.pointerEvents = 'auto';
  const what = (element) => element ? element.tagName.toLowerCase() + '.' + String(element.className.baseVal ?? element.className) + ' ' + (element.textContent ?? '') : 'nothing (off screen)';
  const hitAt = (element) => {
    const box = element.getBoundingClientRect();
    return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  };
  const name = document.querySelector('.vehicle-label[data-device="${device}"] .vehicle-name');
  const hit = name && hitAt(name);
  const seen = { vehicle: hit && hit.closest('.vehicle-label[data-device="${device}"]') ? 'shown' : what(hit) };
  const middle = name.getBoundingClientRect();
  const [x, y] = [middle.left + middle.width / 2, middle.top + middle.height / 2];
  seen.meets = [...document.querySelectorAll('.geofence-label')].filter((label) => {
    const box = label.getBoundingClientRect();
    return box.left <= x && x <= box.right && box.top <= y && y <= box.bottom;
  }).map((label) => label.textContent);
  for (const fence of ${JSON.stringify(fences)}) {
    const label = [...document.querySelectorAll('.geofence-label')].find((l) => l.textContent === fence);
    const at = label && hitAt(label);
    seen[fence] = !label ? 'not drawn' : at && at.closest('.geofence-label') === label ? 'shown' : what(at);
  }
  return seen;
})()`;

async function expectOnTop(page: Page, device: string, fences: string[], meets: string[] = []): Promise<void> {
  const wanted = Object.fromEntries([['vehicle', 'shown'], ['meets', meets], ...fences.map((f) => [f, 'shown'])]);
  await expect.poll(() => page.evaluate(onTop(device, fences)), { timeout: UI_TIMEOUT_MS }).toEqual(wanted);
}

describe('geofence names beside parked vehicles', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    for (const [id, name, lat, lon] of [
      ['depot-van', 'Depot van', LAT, LON],
      ['yard-truck', 'Yard truck', YARD_LAT, LON],
      ['gate-car', 'Gate car', ...GATE],
      ['east-van', 'East van', GATE_FENCE.latitude, GATE_FENCE.longitude],
    ] as const) {
      const registered = await server.post('/auth/register', { uuid: id, name });
      expect(registered.status).toBe(200);
      const headers = { authorization: `Bearer ${registered.body.accessToken}` };
      expect((await server.post('/locations', { location: parked(id, lat, lon), device_id: id }, headers)).status).toBe(
        200,
      );
    }
    // The van parked at the centre of a circle, the truck at the centre of a polygon's bounds:
    // names long enough to reach over a vehicle's label when drawn at the centre.
    const depot = { identifier: 'Central depot yard', latitude: LAT, longitude: LON, radius: 150 };
    const yard = {
      identifier: 'North loading yard',
      vertices: [
        [YARD_LAT - 0.001, LON - 0.0015],
        [YARD_LAT + 0.001, LON - 0.0015],
        [YARD_LAT + 0.001, LON + 0.0015],
        [YARD_LAT - 0.001, LON + 0.0015],
      ],
    };
    for (const body of [depot, yard, GATE_FENCE])
      expect((await server.admin('/api/geofences', { method: 'POST', body })).status).toBe(201);
    // And a fence the van was told to monitor (its own, drawn in its colour), at the same centre.
    const bay = { identifier: 'Van home bay', latitude: LAT, longitude: LON, radius: 60 };
    const command = { command: ['addGeofence', bay] };
    expect((await server.admin('/api/devices/depot-van/commands', { method: 'POST', body: command })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`keeps each vehicle's name on top of the fence it parks in, the fence named too (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      const nameOf = (id: string) => page.locator(`.vehicle-label[data-device="${id}"] .vehicle-name`);
      await nameOf('depot-van').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.locator('.geofence-label').nth(2).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await nameOf('depot-van').textContent()).toBe('Depot van');
      const fences = ['Central depot yard', 'North loading yard', 'Van home bay'];
      expect((await page.locator('.geofence-label').allTextContents()).sort()).toEqual(['East gate', ...fences].sort());
      await expectOnTop(page, 'depot-van', fences);
      await expectOnTop(page, 'yard-truck', fences);

      // The van picked: the map closes in on it (on a phone under the risen sheet), the same holds.
      await page.locator('#devices li[data-device="depot-van"]').click({ timeout: UI_TIMEOUT_MS });
      await expect
        .poll(() => page.locator('.vehicle-label[data-device="depot-van"]').getAttribute('class'), {
          timeout: UI_TIMEOUT_MS,
        })
        .toContain('selected');
      await expectOnTop(page, 'depot-van', ['Central depot yard', 'Van home bay']);

      // The van in the east depot picked (the map closes in on it): the car at the gate, not picked,
      // has its name meet the fence's, and drawn over it.
      await page.locator('#devices li[data-device="east-van"]').click({ timeout: UI_TIMEOUT_MS });
      await expect
        .poll(() => page.locator('.vehicle-label[data-device="east-van"]').getAttribute('class'), {
          timeout: UI_TIMEOUT_MS,
        })
        .toContain('selected');
      await expectOnTop(page, 'east-van', []);
      await expectOnTop(page, 'gate-car', [], ['East gate']);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
