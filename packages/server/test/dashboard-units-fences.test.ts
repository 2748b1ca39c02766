import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// One unit system everywhere (issue 32): a geofence's radius reads in feet under the imperial
// setting, in the tooltips of a device's fence and a server fence, the editor's list and the size
// of the fence being edited; switching back to metric turns every one of them to metres.
const MINUTE = 60_000;

/** The text of the tooltip a map shape shows when pointed at. */
async function tooltipOf(page: Page, selector: string, wanted: string): Promise<string> {
  await page.locator(selector).first().dispatchEvent('mouseover');
  const tip = page.locator('.leaflet-tooltip').filter({ hasText: wanted });
  await tip.waitFor({ timeout: UI_TIMEOUT_MS });
  const text = (await tip.textContent())!;
  await page.locator(selector).first().dispatchEvent('mouseout');
  return text;
}

describe('geofence sizes follow the unit setting', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const start = Date.now() - 10 * MINUTE;
    const fixes = [0, 1, 2, 3].map((i) =>
      record(`van-${i}`, 52.49 + i * 0.001, 13.42, new Date(start + i * MINUTE).toISOString()),
    );
    expect((await server.post('/locations', { location: fixes, device_id: 'van' })).status).toBe(200);
    const depot = { identifier: 'depot', latitude: 52.49, longitude: 13.42, radius: 300 };
    const command = { command: ['addGeofence', depot] };
    expect((await server.admin('/api/devices/van/commands', { method: 'POST', body: command })).status).toBe(201);
    const yard = { identifier: 'yard', latitude: 52.495, longitude: 13.43, radius: 150 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: yard })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`shows radii in feet under imperial, in metres under metric (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        settings: { units: 'imperial' },
      });
      await page.locator('#devices li[data-device="van"]').click({ timeout: UI_TIMEOUT_MS });
      await page.locator('path.geofence[data-device="van"]').waitFor({ timeout: UI_TIMEOUT_MS });
      // 300 m and 150 m: 984 ft and 492 ft.
      expect(await tooltipOf(page, 'path.geofence[data-device="van"]', 'depot')).toBe('depotvan · 984 ft');
      expect(await tooltipOf(page, 'path.server-geofence', 'yard')).toBe('yardserver geofence · 492 ft');
      const row = page.locator('#geofence-editor li[data-fence="yard"]');
      expect(await row.textContent()).toContain('yard 492 ft');
      await row.locator('button.edit-fence').click();
      const size = page.locator('#fence-size');
      await expect.poll(() => size.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Radius 492 ft');
      expect(await page.locator('#geofence-editor').textContent()).not.toMatch(/\d m\b/);

      // Metric: the same four places in metres, without reloading.
      await page.click('#settings-panel summary');
      await page.selectOption('#setting-units', 'metric');
      await expect.poll(() => size.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Radius 150 m');
      await expect.poll(() => row.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('yard 150 m');
      expect(await tooltipOf(page, 'path.geofence[data-device="van"]', 'depot')).toBe('depotvan · 300 m');
      expect(await tooltipOf(page, 'path.server-geofence', 'yard')).toBe('yardserver geofence · 150 m');
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
