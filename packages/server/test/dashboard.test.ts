import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium, logInThroughForm } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { drive, type FleetFix } from './helpers/fleet.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const MINUTE = 60_000;
/** Generous: two CPU cores shared by the whole suite. */
const UI_TIMEOUT_MS = 20_000;
const BERLIN = { latitude: 52.5163, longitude: 13.3777 };

const newest = (fixes: FleetFix[]) => fixes[fixes.length - 1]!;
const latlng = (fix: FleetFix) => `${fix.coords.latitude},${fix.coords.longitude}`;

describe('the dashboard in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  const now = Date.now();
  // A simulated fleet, each device with more records than the old page size of 5,000 or close to it:
  // van-1 drives twice (two hours ago, then until a minute ago), van-2 once, bike-3 three hours ago.
  const van1a = drive('van-1', 'a', 3000, now - 2 * 3600_000, BERLIN);
  const van1b = drive('van-1', 'b', 3000, now - MINUTE, { latitude: 52.49, longitude: 13.42 });
  const van2 = drive('van-2', 'a', 5200, now - 2 * MINUTE, { latitude: 52.53, longitude: 13.33 });
  const bike3 = drive('bike-3', 'a', 400, now - 3 * 3600_000, { latitude: 52.5, longitude: 13.3 });
  const fleet: [string, FleetFix[]][] = [
    ['van-1', [...van1a, ...van1b]],
    ['van-2', van2],
    ['bike-3', bike3],
  ];

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    for (const [device, fixes] of fleet) {
      for (let i = 0; i < fixes.length; i += 2000) {
        const reply = await server.post('/locations', { location: fixes.slice(i, i + 2000), device_id: device });
        expect(reply.status).toBe(200);
      }
    }
    const stop = newest(van1a);
    await server.post('/locations', {
      location: [
        { ...stop, uuid: 'van-1-stop', event: 'motionchange', is_moving: false },
        {
          ...van1b[0]!,
          uuid: 'van-1-depot',
          event: 'geofence',
          geofence: { identifier: 'depot', action: 'EXIT' },
        },
      ],
      device_id: 'van-1',
    });
    const fence = { identifier: 'depot', latitude: 52.49, longitude: 13.42, radius: 300 };
    expect(
      (await server.admin('/api/devices/van-1/commands', { method: 'POST', body: { command: ['addGeofence', fence] } }))
        .status,
    ).toBe(201);
    // A geofence of the server's own (issue 21), evaluated for every device.
    const yard = {
      identifier: 'yard',
      vertices: [
        [52.5, 13.37],
        [52.505, 13.37],
        [52.505, 13.38],
      ],
    };
    expect((await server.admin('/api/geofences', { method: 'POST', body: yard })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows each device at its newest record, trips as separate lines, records, ranges and live positions', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Times in UTC (the settings panel's choice, remembered): the stamps below are ISO times.
    await page.addInitScript({ content: `localStorage.setItem('waypost.settings', '{"timeZone":"utc"}')` });
    const hosts = new Set<string>();
    const problems: string[] = [];
    page.on('request', (request) => hosts.add(new URL(request.url()).hostname));
    // Script errors and CSP refusals; an answered 401 or 400 (the refused login and command) is expected.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${server.url}/`);
    await page.fill('#token-input', 'not-the-token');
    await page.click('#login button[type=submit]');
    await page.locator('#login-error').filter({ hasText: 'not the admin token' }).waitFor();
    await logInThroughForm(page, server.url, server.adminToken);
    await page.locator('#status').filter({ hasText: 'live' }).waitFor();

    // Every device's marker sits at its newest record, not at its 5,000th.
    const marker = (device: string) => page.locator(`path.device-marker[data-device="${device}"]`);
    for (const [device, fixes] of fleet) {
      await expect
        .poll(() => marker(device).getAttribute('data-latlng'), { timeout: UI_TIMEOUT_MS })
        .toBe(latlng(newest(fixes)));
    }
    // van-1's two drives are two lines; van-2's one drive is one.
    const trips = (device: string) => page.locator(`path.trip[data-device="${device}"]`);
    expect(await trips('van-1').count()).toBe(2);
    expect(await trips('van-2').count()).toBe(1);
    // Each device has its own colour.
    const colours = await Promise.all(fleet.map(([device]) => trips(device).first().getAttribute('stroke')));
    expect(new Set(colours).size).toBe(3);
    // The motion change, the geofence event and the geofence the device was told to monitor.
    expect(await page.locator('path.event-motionchange[data-device="van-1"]').count()).toBe(1);
    expect(await page.locator('path.event-geofence[data-device="van-1"]').count()).toBe(1);
    expect(await page.locator('path.geofence[data-device="van-1"]').count()).toBe(1);
    await expect.poll(() => page.locator('path.server-geofence').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    // At city zoom the coarse offline outline is hidden, and the map says how to get real tiles
    // (dashboard-basemap.test.ts draws it at world zoom).
    await expect
      .poll(() => page.locator('#map').getAttribute('class'), { timeout: UI_TIMEOUT_MS })
      .toContain('outline-hidden');
    expect(await page.locator('#basemap-hint').textContent()).toContain('--tile-url');

    // Selecting a device: details, its records newest first, paged, and a record's JSON.
    await page.click('#devices li[data-device="van-1"]');
    await page.locator('#details').filter({ hasText: 'Selected device' }).waitFor();
    await expect
      .poll(() => page.locator('#details dd').first().textContent(), { timeout: UI_TIMEOUT_MS })
      .toBe('van-1');
    await page.locator('#records-info').filter({ hasText: '1–50 of 6002' }).waitFor();
    expect(await page.locator('#records tbody tr').first().getAttribute('data-uuid')).toBe(newest(van1b).uuid);
    // Its events as a timeline, newest first: what it recorded, and the server's own fleet events,
    // one entry per event (the trip's end is the recorded stop), late by how much (uploaded after).
    const timeline = page.locator('#timeline li');
    const stamp = (timestamp: string) =>
      new Date(Date.parse(timestamp))
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
    const late = '\\(late: arrived (\\d+ h \\d\\d min|\\d+ min \\d\\d s) after\\)';
    await expect.poll(() => timeline.count(), { timeout: UI_TIMEOUT_MS }).toBe(4);
    const entries = await timeline.allTextContents();
    expect(entries[0]).toMatch(new RegExp(`^${stamp(van1b[0]!.timestamp)} trip start ${late}$`));
    expect(entries[1]).toBe(`${stamp(van1b[0]!.timestamp)} geofence EXIT depot`);
    expect(entries[2]).toMatch(
      new RegExp(`^${stamp(newest(van1a).timestamp)} stopped · trip end \\(49 min 59 s\\) ${late}$`),
    );
    expect(entries[3]).toMatch(new RegExp(`^${stamp(van1a[0]!.timestamp)} trip start ${late}$`));
    await timeline.nth(2).locator('button').click();
    await page.locator('path.record-focus').waitFor({ state: 'attached' });
    await page.click('#records-older');
    await page.locator('#records-info').filter({ hasText: '51–100 of 6002' }).waitFor();
    const row = page.locator('#records tbody tr').nth(3);
    const uuid = await row.getAttribute('data-uuid');
    await row.click();
    const json = JSON.parse((await page.locator('#record-json').textContent())!);
    expect(json).toMatchObject({ uuid, record: { uuid, activity: { type: 'in_vehicle' }, extras: { trip: 'b' } } });

    // The last hour: van-1's first drive and bike-3 fall outside it.
    await page.selectOption('#range-preset', 'hour');
    await page.locator('#records-info').filter({ hasText: '1–50 of 3001' }).waitFor(); // with the geofence event
    await expect.poll(() => trips('van-1').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    await expect.poll(() => trips('bike-3').count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
    expect(await marker('bike-3').count()).toBe(0);
    expect(await marker('van-1').getAttribute('data-latlng')).toBe(latlng(newest(van1b)));

    // A custom range around van-1's first drive.
    await page.selectOption('#range-preset', 'custom');
    const local = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * MINUTE).toISOString().slice(0, 19);
    await page.fill('#range-from', local(Date.parse(van1a[0]!.timestamp)));
    await page.fill('#range-to', local(Date.parse(newest(van1a).timestamp) + 30_000));
    await page.click('#range-apply');
    await page.locator('#records-info').filter({ hasText: 'of 3001' }).waitFor(); // and the motion change
    await expect
      .poll(() => marker('van-1').getAttribute('data-latlng'), { timeout: UI_TIMEOUT_MS })
      .toBe(latlng(newest(van1a)));

    // Back to all time; a position uploaded now moves the marker and appears in the table.
    await page.selectOption('#range-preset', 'all');
    await page.locator('#records-info').filter({ hasText: '1–50 of 6002' }).waitFor();
    const fresh = { ...newest(van1b), uuid: 'van-1-live', timestamp: new Date().toISOString() };
    fresh.coords = { ...fresh.coords, latitude: 52.4961, longitude: 13.4311 };
    expect((await server.post('/locations', { location: fresh, device_id: 'van-1' })).status).toBe(200);
    await expect
      .poll(() => marker('van-1').getAttribute('data-latlng'), { timeout: UI_TIMEOUT_MS })
      .toBe('52.4961,13.4311');
    await page.locator('#records tbody tr[data-uuid="van-1-live"]').waitFor();

    // The command form says what each command takes and refuses what the SDK would refuse.
    await page.selectOption('#command-device', 'van-2');
    await page.selectOption('#command-name', 'changePace');
    await page.locator('#command-takes').filter({ hasText: 'true (moving) or false (stationary)' }).waitFor();
    await page.fill('#command-argument', '');
    await page.click('#command-form button[type=submit]');
    await page.locator('#command-result').filter({ hasText: 'Refused: changePace expects true or false' }).waitFor();
    await page.fill('#command-argument', 'true');
    await page.click('#command-form button[type=submit]');
    await page.locator('#command-result').filter({ hasText: 'Queued' }).waitFor();
    const reply = await server.post('/locations', {
      location: { ...newest(van2), uuid: 'van-2-x', timestamp: new Date().toISOString() },
      device_id: 'van-2',
    });
    expect(reply.body.background_geolocation).toEqual([['changePace', true]]);

    await page.click('#devices li[data-device="van-1"]');
    await page.locator('#records-info').filter({ hasText: 'of 6003' }).waitFor();
    await page.locator('#sidebar').evaluate((sidebar) => sidebar.scrollTo(0, 0));
    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = `${ARTIFACTS}dashboard.png`;
    await page.screenshot({ path: screenshot });
    // A map with outlines, lines and a filled table compresses far less than an empty grey page.
    expect(statSync(screenshot).size).toBeGreaterThan(60_000);
    expect([...hosts]).toEqual(['127.0.0.1']);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);
});
