import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium, logInThroughForm } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

/**
 * Each payload, if it ever became HTML, would both run script (blocked by the CSP, so not enough to
 * detect it) and load an image from this server (allowed by the CSP): the request to /pwned/<where>
 * is the witness that data was turned into markup.
 */
const payload = (where: string) =>
  `<img src="/pwned/${where}" onerror="window.__pwned='${where}'"><script>window.__pwned='${where}'</script>`;

const DEVICE = payload('device-id');
const T = Date.now() - 60_000;
const at = (offsetS: number) => new Date(T + offsetS * 1000).toISOString();

describe('the dashboard renders hostile data as text', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const base = record('x', 52.5, 13.4);
    const fixes = [
      { ...base, uuid: 'x-1', timestamp: at(0), extras: { note: payload('extras') } },
      {
        ...base,
        uuid: 'x-2',
        timestamp: at(10),
        coords: { ...base.coords, latitude: 52.501 },
        activity: { type: payload('activity'), confidence: 1 },
      },
      {
        ...base,
        uuid: 'x-3',
        timestamp: at(20),
        coords: { ...base.coords, latitude: 52.502 },
        event: 'motionchange',
        extras: { popup: payload('event-popup') },
      },
      {
        ...base,
        uuid: 'x-4',
        timestamp: at(30),
        coords: { ...base.coords, latitude: 52.503 },
        event: 'geofence',
        geofence: { identifier: payload('geofence-event'), action: payload('geofence-action') },
      },
    ];
    // The log first: it registers the device with its model.
    const form = new FormData();
    form.set('device_id', DEVICE);
    form.set('model', payload('model'));
    form.set('log', new Blob([`2024-05-01 INFO ${payload('log')}\n`]), 'log.txt');
    const log = await fetch(`${server.url}/api/logs`, { method: 'POST', body: form });
    expect(log.status).toBe(201);
    const upload = await server.post('/locations', { location: fixes, device_id: DEVICE });
    expect(upload.status).toBe(200);
    const fence = { identifier: payload('geofence'), latitude: 52.5, longitude: 13.4, radius: 200 };
    const queued = await server.admin(`/api/devices/${encodeURIComponent(DEVICE)}/commands`, {
      method: 'POST',
      body: { command: ['addGeofence', fence] },
    });
    expect(queued.status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows device ids, extras, events, geofences, logs and errors literally, and runs none of them', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const witnesses: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/pwned')) witnesses.push(request.url());
    });
    await logInThroughForm(page, server.url, server.adminToken);
    const item = page.locator('#devices li').first();
    await item.waitFor();
    expect(await item.locator('strong').textContent()).toBe(DEVICE);
    expect(await item.textContent()).toContain(payload('model'));

    // The device marker's tooltip.
    // Leaflet opens tooltips on mouseover and popups on click: dispatched on the element itself, so
    // no line or marker drawn over it can take the event instead.
    await page.locator('path.device-marker').dispatchEvent('mouseover');
    const tooltip = page.locator('.leaflet-tooltip');
    await tooltip.filter({ hasText: DEVICE }).waitFor();

    // Selecting the device: details, the records table, a record's JSON with its extras.
    await item.click();
    await page.locator('#details dd').filter({ hasText: DEVICE }).first().waitFor();
    await page.locator('#records tbody tr[data-uuid="x-2"]').waitFor();
    expect(await page.locator('#records tbody tr[data-uuid="x-2"] td').nth(8).textContent()).toBe(payload('activity'));
    await page.click('#records tbody tr[data-uuid="x-1"]');
    expect(JSON.parse((await page.locator('#record-json').textContent())!).record.extras.note).toBe(payload('extras'));

    // Event markers: tooltip (geofence identifier and action) and popup (the record's JSON).
    await page.locator('path.event-geofence').dispatchEvent('mouseover');
    const eventTip = tooltip.filter({ hasText: payload('geofence-event') });
    await eventTip.waitFor();
    expect(await eventTip.textContent()).toContain(payload('geofence-action'));
    await page.locator('path.event-motionchange').dispatchEvent('click');
    await page
      .locator('.leaflet-popup-content')
      .filter({ hasText: JSON.stringify(payload('event-popup')) }) // the record as JSON text
      .waitFor();
    await page.keyboard.press('Escape');

    // The geofence it was told to monitor.
    await page.locator('path.geofence').dispatchEvent('mouseover');
    await tooltip
      .filter({ hasText: payload('geofence') })
      .first()
      .waitFor();

    // The uploaded log, as text.
    await page.locator('#device-logs button').click();
    await page
      .locator('#record-json')
      .filter({ hasText: payload('log') })
      .waitFor();

    // An error that names what it refused: setConfig with a hostile key.
    await page.selectOption('#command-name', 'setConfig');
    await page.fill('#command-argument', JSON.stringify({ [payload('config-key')]: 1 }));
    await page.click('#command-form button[type=submit]');
    await page.locator('#command-result').filter({ hasText: 'Refused' }).waitFor();
    expect(await page.locator('#command-result').textContent()).toContain(payload('config-key'));

    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('img[src^="/pwned"], #app script').count()).toBe(0);
    expect(witnesses).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('the new views render hostile data as text too', () => {
  let server: TestServer;
  let browser: Browser;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // A phone registered with a hostile name, a trip, and a refused record full of markup.
    const registered = await server.post('/auth/register', { uuid: 'hostile-phone', name: payload('name') });
    expect(registered.status).toBe(200);
    id = registered.body.deviceId;
    const base = record('y', 52.5, 13.4);
    const fixes = [0, 1, 2, 3].map((i) => ({
      ...base,
      uuid: `y-${i}`,
      sequence: i + 1,
      timestamp: at(i * 10),
      coords: { ...base.coords, latitude: 52.5 + i * 0.001 },
      extras: { note: payload('trip-extras') },
    }));
    const refused = {
      ...base,
      uuid: payload('quarantine-uuid'),
      sequence: 7, // 6 never arrives
      timestamp: at(50),
      coords: { latitude: 91, longitude: 0, accuracy: 5 },
      extras: { note: payload('quarantine-raw') },
    };
    const crossing = {
      ...fixes[3]!,
      uuid: 'y-geofence',
      sequence: 5,
      timestamp: at(40),
      event: 'geofence',
      geofence: { identifier: payload('timeline-geofence'), action: payload('timeline-action') },
    };
    // A server geofence the trip crosses (in at y-0, out at y-2): its events reach the timeline.
    const crossed = {
      identifier: payload('fleet-event-geofence'),
      latitude: 52.5,
      longitude: 13.4,
      radius: 150,
      extras: { note: payload('fleet-event-extras') },
    };
    expect((await server.admin('/api/geofences', { method: 'POST', body: crossed })).status).toBe(201);
    // With its token: a registered device takes no anonymous upload (issue 41 item 5).
    const token = { authorization: `Bearer ${registered.body.accessToken}` };
    expect((await server.post('/locations', { location: [...fixes, crossing, refused] }, token)).status).toBe(200);
    const fence = { identifier: payload('server-geofence'), latitude: 52.5, longitude: 13.4, radius: 300 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: fence })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows names, trips, playback, events, server geofences, delivery health, quarantined records and share pages literally', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const witnesses: string[] = [];
    const watch = (request: { url(): string }) => {
      if (new URL(request.url()).pathname.startsWith('/pwned')) witnesses.push(request.url());
    };
    page.on('request', watch);
    await logInThroughForm(page, server.url, server.adminToken);
    const item = page.locator(`#devices li[data-device="${id}"]`);
    await item.waitFor();
    expect(await item.locator('strong').textContent()).toBe(payload('name'));
    // The vehicle's label on the map and the geofences' names: text, never markup.
    await page.locator('.vehicle-label .vehicle-name').waitFor();
    expect(await page.locator('.vehicle-label .vehicle-name').textContent()).toBe(payload('name'));
    await expect
      .poll(() => page.locator('.geofence-label').allTextContents(), { timeout: 20_000 })
      .toEqual(expect.arrayContaining([payload('server-geofence'), payload('fleet-event-geofence')]));
    await page.locator('path.device-marker').dispatchEvent('mouseover');
    await page
      .locator('.leaflet-tooltip')
      .filter({ hasText: payload('name') })
      .waitFor();

    await item.click();
    await page
      .locator('#details dd')
      .filter({ hasText: payload('name') })
      .waitFor();
    await page.locator('#trips .trips-table tbody tr').waitFor();
    await page.locator('#playback').waitFor();
    await page
      .locator('#timeline li')
      .filter({ hasText: payload('timeline-geofence') })
      .waitFor();
    expect(await page.locator('#timeline li').first().textContent()).toContain(payload('timeline-action'));
    // The server's own events, with the hostile geofence identifier as text.
    const fleetItems = page.locator('#timeline li.fleet').filter({ hasText: payload('fleet-event-geofence') });
    await expect
      .poll(() => fleetItems.allTextContents(), { timeout: 20_000 })
      .toEqual([
        expect.stringContaining('server geofence exit ' + payload('fleet-event-geofence')),
        expect.stringContaining('server geofence enter ' + payload('fleet-event-geofence')),
      ]);
    // Two server geofences: the one the trip crossed, and this one.
    for (const fence of await page.locator('path.server-geofence').all()) await fence.dispatchEvent('mouseover');
    await page
      .locator('.leaflet-tooltip')
      .filter({ hasText: payload('server-geofence') })
      .waitFor();
    await page.locator('#health .health.missing').waitFor();
    await page.locator('#health .quarantine button').click();
    const raw = await page.locator('#record-json').textContent();
    expect(raw).toContain(JSON.stringify(payload('quarantine-raw')).slice(1, -1));
    // The editors (issue 32): the saved geofences' names, a sink's URL, and the API's refusals that
    // echo what was typed, all as text; the edit form holds the hostile name as a value.
    const fenceRow = page.locator('#geofence-editor li').filter({ hasText: payload('server-geofence') });
    expect(await fenceRow.locator('strong').textContent()).toBe(payload('server-geofence'));
    await fenceRow.locator('button.edit-fence').click();
    expect(await page.locator('#fence-name').inputValue()).toBe(payload('server-geofence'));
    await page.fill('#fence-loitering', payload('fence-loitering'));
    await page.click('#fence-save');
    await page.locator('#fence-error-loiteringDelay').filter({ hasText: '/pwned/fence-loitering' }).waitFor();
    await page.click('#fence-cancel');
    await page.fill('#sink-url', 'http://127.0.0.1:9/' + payload('sink-url'));
    await page.fill('#sink-events', payload('sink-events'));
    await page.click('#sink-add');
    await page.locator('#sink-error-events').filter({ hasText: '/pwned/sink-events' }).waitFor();
    await page.fill('#sink-events', '');
    await page.click('#sink-add');
    await page
      .locator('#sinks li')
      .filter({ hasText: payload('sink-url') })
      .waitFor();
    await page.locator('#share-create').click();
    await expect.poll(() => page.locator('#share-url').inputValue()).toMatch(/\/s\//);
    const shareUrl = await page.locator('#share-url').inputValue();

    const visitor = await browser.newPage();
    visitor.on('request', watch);
    await visitor.goto(shareUrl);
    await visitor.locator('path.share-trip').waitFor({ state: 'attached' });
    expect(await visitor.locator('#share-title').textContent()).toBe(payload('name'));

    for (const view of [page, visitor]) {
      expect(await view.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await view.locator('img[src^="/pwned"], body script:not([src])').count()).toBe(0);
    }
    expect(witnesses).toEqual([]);
    await visitor.close();
    await page.close();
  }, 120_000);
});
