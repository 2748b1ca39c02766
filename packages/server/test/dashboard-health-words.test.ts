// The dashboard says each device's state and cause in words (issue 31): the device list's line,
// the device panel's "State" (with what the device said: records queued, since when), a revoked
// token as the server saw it, and the silent periods explained once a device was back, in the
// delivery ledger's view. Real Chromium at 1440x900 and 390x844; everything rendered as text.
import { formatHealthHeader, type HealthReport } from '@waypost/sdk/internal';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { type Json, record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const MIN = 60_000;

describe('device state in words in the dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  let now = Date.now() - 60 * MIN;
  const health = async (id: string): Promise<Json> => (await server.admin(`/api/devices/${id}/health`)).body;
  const upload = (id: string, report: HealthReport, headers: Record<string, string> = {}) =>
    server.post(
      '/locations',
      { location: record(`${id}-${now}`, 45.5, -73.57, new Date(now).toISOString()), device_id: id },
      { 'waypost-health': formatHealthHeader({ clock: Math.floor(now / 1000), ...report }), ...headers },
    );

  beforeAll(async () => {
    server = await startTestServer(backends[0]!, { now: () => now, silentAfterSeconds: 600, deliveryPollMs: 50 });
    // Cut off: quiet past the threshold (named from its last report by the silence check), then back.
    expect((await upload('back', { motion: { moving: true }, network: 'wifi' })).status).toBe(200);
    now += 20 * MIN;
    const deadline = Date.now() + 10_000;
    while ((await health('back')).history[0]?.inferred !== true) {
      if (Date.now() > deadline) throw new Error('the silence check did not name the quiet device within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    now += MIN;
    const returned = await upload('back', { network: 'wifi', was: { kind: 'offline', for: 20 * 60, ago: 5 } });
    expect(returned.status).toBe(200);
    // Waiting for Wi-Fi with 42 records, the oldest ten minutes old.
    expect(
      (await upload('van-42', { queued: 42, oldestAge: 600, hold: { kind: 'wifi' }, wifiOnly: true })).status,
    ).toBe(200);
    // A revoked token.
    const { accessToken } = (await server.admin('/auth/register', { method: 'POST', body: { device_id: 'revoked' } }))
      .body as { accessToken: string };
    await server.admin('/api/devices/revoked/tokens/revoke', { method: 'POST' });
    now += 1000;
    expect((await upload('revoked', { queued: 3 }, { authorization: `Bearer ${accessToken}` })).status).toBe(401);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`the list and the panel say state and cause as sentences (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        settings: { timeZone: 'utc' },
      });
      const line = (id: string) => page.locator(`#devices li[data-device="${id}"] .health-state`);
      await line('van-42').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await line('van-42').textContent()).toMatch(/^ · Waiting for Wi-Fi since \d\d:\d\d:\d\d UTC$/);
      expect(await line('revoked').textContent()).toMatch(
        /^ · Its credentials are refused \(a revoked or expired token\) since \d\d:\d\d:\d\d UTC$/,
      );

      await page.locator('#devices li[data-device="van-42"]').click();
      const sentence = page.locator('#device-state .state-sentence');
      await sentence.waitFor({ timeout: UI_TIMEOUT_MS });
      const oldest = new Date(now - 1000 - 600_000).toISOString().slice(11, 19);
      expect(await sentence.textContent()).toBe(`Waiting for Wi-Fi: 42 records queued since ${oldest} UTC`);

      await page.locator('#devices li[data-device="revoked"]').click();
      await page.locator('#device-state').filter({ hasText: 'TOKEN_REVOKED' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await page.locator('#device-state').textContent()).toContain(
        'Seen by the server: a request with its refused credentials (TOKEN_REVOKED) last arrived',
      );

      await page.locator('#devices li[data-device="back"]').click();
      const silence = page.locator('#health .silent-periods li');
      await silence.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await silence.textContent()).toMatch(
        /^Silent from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: No network \(said by the device on its return\)$/,
      );
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
