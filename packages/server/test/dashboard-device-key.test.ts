// The dashboard's device key control (issue 40): made in the device panel and shown once, replaced
// (the old key stops at once) and revoked, each answered by the tracker's next upload.
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { DESKTOP, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

describe('the device key control', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    expect((await server.post('/locations', { device_id: 'osmand-phone', location: record('d-1') })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const upload = async (key: string, at: number) =>
    (await fetch(`${server.url}/osmand?id=osmand-phone&lat=52.5&lon=13.4&timestamp=${at}&key=${key}`)).json();

  it('makes a key shown once, replaces it and revokes it; the tracker is answered accordingly', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, DESKTOP);
    await page.locator('#devices li[data-device="osmand-phone"]').click();
    const state = page.locator('#device-key-state');
    await state.filter({ hasText: 'No key' }).waitFor({ timeout: UI_TIMEOUT_MS });

    await page.locator('#device-key-make').click();
    const shown = page.locator('#device-key');
    await expect.poll(() => shown.inputValue(), { timeout: UI_TIMEOUT_MS }).toMatch(/^wpk_[\w-]{43}$/);
    const first = await shown.inputValue();
    await state.filter({ hasText: 'is in force' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await upload(first, 1714557600000)).toMatchObject({ stored: 1 });

    await page.locator('#device-key-make', { hasText: 'Replace key' }).click();
    await expect.poll(() => shown.inputValue(), { timeout: UI_TIMEOUT_MS }).not.toBe(first);
    const second = await shown.inputValue();
    expect(await upload(first, 1714557700000)).toMatchObject({ code: 'KEY_REVOKED' });
    expect(await upload(second, 1714557800000)).toMatchObject({ stored: 1 });

    await page.locator('#device-key-revoke').click();
    await state.filter({ hasText: 'was revoked' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await shown.isHidden()).toBe(true);
    expect(await upload(second, 1714557900000)).toMatchObject({ code: 'KEY_REVOKED' });
    // Shown once: the page reloaded shows the state, never the key.
    await page.reload();
    await page.locator('#devices li[data-device="osmand-phone"]').click();
    await state.filter({ hasText: 'was revoked' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.content()).not.toContain(second);
    expect(problems).toEqual([]);
    await page.close();
  });
});
