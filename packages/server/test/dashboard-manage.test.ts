import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { type Json, record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

// Geofences and sinks managed from the dashboard (issue 32): drawn on the map, saved through the
// API (and read back from it), refused by the API with its words beside the field; a sink added,
// paused with its backlog growing, resumed and its delivery seen by a real receiver on port 0.
const PASSWORD = 'correct horse battery staple';
const HTML_NAME = '<img src=x onerror="window.__owned=1">yard';

/** A point of the map's visible area, as a fraction of its width and height. */
async function onMap(page: Page, fx: number, fy: number): Promise<{ x: number; y: number }> {
  const box = (await page.locator('#map').boundingBox())!;
  return { x: box.x + box.width * fx, y: box.y + box.height * fy };
}

/** A saved geofence's row in the editor, by its name exactly (names hold any text). */
const fenceItem = (page: Page, name: string) =>
  page.locator('#geofence-editor li').filter({ has: page.getByText(name, { exact: true }) });

async function clickMap(page: Page, fx: number, fy: number): Promise<void> {
  const { x, y } = await onMap(page, fx, fy);
  await page.mouse.move(x, y, { steps: 3 });
  await page.mouse.click(x, y);
}

describe('the dashboard manages geofences and sinks', () => {
  let server: TestServer;
  let browser: Browser;
  let receiver: WebhookReceiver;
  const fences = async (): Promise<Json[]> => (await server.admin('/api/geofences')).body;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    receiver = await new WebhookReceiver().start();
    const now = Date.now();
    const track = [0, 1, 2, 3].map((i) =>
      record(`p${i}`, 48.1 + i * 0.002, 11.5 + i * 0.002, new Date(now - (10 - i) * 60_000).toISOString()),
    );
    expect((await server.post('/locations', { location: track, device_id: 'van-1' })).status).toBe(200);
    expect(
      (
        await server.admin('/api/users', {
          method: 'POST',
          body: { name: 'watcher', password: PASSWORD, role: 'viewer' },
        })
      ).status,
    ).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`draws, saves, edits and deletes geofences (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      const circleName = `${HTML_NAME}-${label}`;
      await page.locator('#draw-circle').click({ timeout: UI_TIMEOUT_MS });
      await clickMap(page, 0.3, 0.3);
      await clickMap(page, 0.4, 0.3);
      await page.locator('#fence-form').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.fill('#fence-name', circleName);
      // The API decides what is valid: its refusal shows beside the field, as text.
      await page.fill('#fence-loitering', '-5');
      await page.click('#fence-save');
      await page
        .locator('#fence-error-loiteringDelay')
        .filter({ hasText: 'loiteringDelay' })
        .waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await page.locator('#fence-error-identifier').textContent()).toBe('');
      await page.fill('#fence-loitering', '30');
      await page.click('#fence-save');
      await fenceItem(page, circleName).waitFor({ timeout: UI_TIMEOUT_MS });
      const circle = (await fences()).find((f) => f.identifier === circleName);
      expect(circle).toMatchObject({ loiteringDelay: 30_000, notifyOnDwell: true });
      expect(circle.radius).toBeGreaterThan(1);
      expect(circle.vertices).toBeUndefined();
      // Its label on the map and its row are the name as text: no element came of it.
      await page.locator('.geofence-label').filter({ hasText: circleName }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await page.locator('#geofence-editor img, #map img[src="x"]').count()).toBe(0);

      // A polygon of three corners (the last click on the first corner closes it).
      const polygonName = `depot ${label}`;
      await page.click('#draw-polygon');
      // Clear of the vehicle (its label would take a click) and of the playback bar.
      for (const [fx, fy] of [
        [0.75, 0.4],
        [0.92, 0.4],
        [0.85, 0.6],
        [0.75, 0.4],
      ] as const)
        await clickMap(page, fx, fy);
      await page.locator('#fence-form').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.fill('#fence-name', polygonName);
      await page.click('#fence-save');
      await fenceItem(page, polygonName).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await fences()).find((f) => f.identifier === polygonName)?.vertices).toHaveLength(3);

      // Renamed through its Edit button: the new name replaces the old one.
      await fenceItem(page, polygonName).locator('button.edit-fence').click();
      await page.fill('#fence-name', `${polygonName} north`);
      await page.click('#fence-save');
      await fenceItem(page, `${polygonName} north`).waitFor({ timeout: UI_TIMEOUT_MS });
      const names = (await fences()).map((f) => f.identifier);
      expect(names).toContain(`${polygonName} north`);
      expect(names).not.toContain(polygonName);
      await fenceItem(page, circleName).locator('button.delete-fence').click();
      await fenceItem(page, circleName).waitFor({ state: 'detached' });
      expect((await fences()).map((f) => f.identifier)).not.toContain(circleName);
      expect(await page.evaluate('window.__owned')).toBeUndefined();
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`adds a webhook, pauses it with its backlog shown, resumes and sees it delivered (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      await page.locator('#sink-form').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.selectOption('#sink-kind', 'mqtt');
      await page.fill('#sink-url', 'http://127.0.0.1:1/not-a-broker');
      await page.click('#sink-add');
      await page.locator('#sink-error-url').filter({ hasText: 'mqtt' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.selectOption('#sink-kind', 'webhook');
      await page.fill('#sink-url', receiver.url);
      await page.fill('#sink-events', 'trip.start, no.such.event');
      await page.click('#sink-add');
      await page.locator('#sink-error-events').filter({ hasText: 'no.such.event' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.fill('#sink-events', 'location');
      await page.click('#sink-add');
      await page.locator('#sink-created').filter({ hasText: 'whsec_' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const sinks: Json[] = (await server.admin('/api/sinks')).body;
      const sink = sinks.find((s) => s.url === receiver.url && !s.paused);
      expect(sink).toMatchObject({ kind: 'webhook', events: ['location'], paused: false });
      const item = page.locator(`#sinks li[data-sink="${sink.id}"]`);

      // Paused: a new position waits in its backlog, shown in the list, and nothing is sent.
      await item.locator('button.pause-sink').click();
      await page.locator(`#sinks li[data-sink="${sink.id}"][data-paused="true"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      const before = receiver.requests.length;
      const uuid = `late-${label}`;
      await server.post('/locations', {
        location: [record(uuid, 48.11, 11.51, new Date().toISOString())],
        device_id: 'van-1',
      });
      await item.filter({ hasText: '1 waiting' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(receiver.requests.length).toBe(before);
      // Resumed: it goes out, and the backlog empties.
      await item.locator('button.pause-sink').filter({ hasText: 'Resume' }).click();
      await receiver.waitFor(1, (r) => r.body.includes(uuid));
      await item.filter({ hasText: '0 waiting' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await item.locator('button.delete-sink').click();
      await item.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      expect(((await server.admin('/api/sinks')).body as Json[]).map((s) => s.id)).not.toContain(sink.id);
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`shows a viewer the sinks but no editor (${label})`, async () => {
      const hook = await server.admin('/api/webhooks', { method: 'POST', body: { url: receiver.url } });
      const { page, problems } = await openDashboard(browser, server.url, '', viewport, {
        user: { name: 'watcher', password: PASSWORD },
      });
      await page.locator(`#sinks li[data-sink="${hook.body.id}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await page.locator('#geofence-editor').isHidden()).toBe(true);
      expect(await page.locator('#draw-circle, #sink-form, button.pause-sink, button.delete-sink').count()).toBe(0);
      await server.admin(`/api/sinks/${hook.body.id}`, { method: 'DELETE' });
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
