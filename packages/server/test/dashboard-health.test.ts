import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const numbered = (sequence: number, extra: Record<string, unknown> = {}) => ({
  ...record(
    `seq-${sequence}`,
    45.5 + sequence * 0.001,
    -73.57,
    new Date(Date.now() - 60_000 + sequence * 1000).toISOString(),
  ),
  sequence,
  ...extra,
});

describe('delivery health in the dashboard', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // 1-3 and 7-8 arrive, 4-5 never do, 6 is refused (latitude 91) and quarantined.
    const records = [1, 2, 3, 7, 8].map((n) => numbered(n));
    records.push(numbered(6, { coords: { latitude: 91, longitude: 0, accuracy: 5 } }));
    expect((await server.post('/locations', { location: records, device_id: 'gappy' })).status).toBe(200);
    const whole = [1, 2, 3].map((n) => ({ ...numbered(n), uuid: `whole-${n}` }));
    expect((await server.post('/locations', { location: whole, device_id: 'whole' })).status).toBe(200);
    // A queue wiped under the same device id (issue 39): 1-3, then a new numbering with 2 missing.
    for (const [epoch, numbers] of [
      ['queue-one', [1, 2, 3]],
      ['queue-two', [1, 3]],
    ] as const) {
      const again = numbers.map((n) => ({ ...numbered(n), uuid: `${epoch}-${n}`, sequence_epoch: epoch }));
      expect((await server.post('/locations', { location: again, device_id: 'restarted' })).status).toBe(200);
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`says complete or what is missing, and shows the quarantined records (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      expect(await page.locator('#devices li[data-device="gappy"] .quarantined').textContent()).toBe(
        ' · 1 quarantined',
      );
      await page.locator('#devices li[data-device="whole"]').click();
      await page
        .locator('#health .health.complete')
        .filter({ hasText: 'all 3 records' })
        .waitFor({ timeout: UI_TIMEOUT_MS });

      await page.locator('#devices li[data-device="gappy"]').click();
      const verdict = page.locator('#health .health.missing');
      await verdict.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await verdict.textContent()).toBe('2 missing of 8: #4–#5');
      expect(await page.locator('#health').textContent()).toContain('5 received · 0 duplicates · 1 quarantined');

      await page.locator('#devices li[data-device="restarted"]').click();
      const restarted = page.locator('#health .health.missing', { hasText: 'numberings' });
      await restarted.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await restarted.textContent()).toMatch(
        /^1 missing of 6 in 2 numberings: the device started numbering again at #1 \(a new queue database under the same id\), last .+\.$/,
      );
      expect(await page.locator('#health .numberings li').allTextContents()).toEqual([
        expect.stringMatching(/^Since .+: all 3 records accounted for$/),
        expect.stringMatching(/^Since .+: 1 missing of 3: #2$/),
      ]);
      await page.locator('#devices li[data-device="gappy"]').click();
      await verdict.waitFor({ timeout: UI_TIMEOUT_MS });
      await page.locator('#health .quarantine button').first().click();
      const raw = await page.locator('#record-json').textContent();
      expect(raw).toMatch(/^[A-Z_]+: /);
      expect(raw).toContain('"latitude":91');
      expect(await page.locator('#health a', { hasText: 'CSV' }).getAttribute('href')).toBe(
        '/api/devices/gappy/quarantine?format=csv&limit=10000',
      );
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
