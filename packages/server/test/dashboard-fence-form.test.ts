import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// The geofence form (issue 42): it takes the loitering delay in seconds, so its errors speak of
// seconds (never the API's milliseconds), and two wrong fields show two errors, each beside its field.
describe('the geofence form says every error in its own units', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const yard = { identifier: 'yard', latitude: 52.495, longitude: 13.43, radius: 150 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: yard })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a missing name and a wrong delay at once, in seconds', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, BOTH_SIZES[0]![1]);
    await page.locator('#geofence-editor li[data-fence="yard"] button.edit-fence').click({ timeout: UI_TIMEOUT_MS });
    const nameError = page.locator('#fence-error-identifier');
    const delayError = page.locator('#fence-error-loiteringDelay');

    // A negative delay: the error is about seconds, the unit the field asks for.
    await page.fill('#fence-loitering', '-5');
    await page.click('#fence-save');
    await expect.poll(() => delayError.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('seconds');
    expect(await delayError.textContent()).not.toMatch(/milli/i);
    expect(await delayError.textContent()).toContain('-5');
    expect(await nameError.textContent()).toBe('');

    // Two wrong fields: both errors, each beside its own field.
    await page.fill('#fence-name', '');
    await page.fill('#fence-loitering', 'soon');
    await page.click('#fence-save');
    await expect.poll(() => nameError.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Give the geofence a name.');
    expect(await delayError.textContent()).toContain('"soon" is not a number of seconds');

    // Put right, it saves with the delay in the API's milliseconds, and the errors go.
    await page.fill('#fence-name', 'yard');
    await page.fill('#fence-loitering', '1.5');
    await page.click('#fence-save');
    await expect
      .poll(
        async () => ((await server.admin('/api/geofences')).body as { loiteringDelay?: number }[])[0]?.loiteringDelay,
        {
          timeout: UI_TIMEOUT_MS,
        },
      )
      .toBe(1500);
    expect(await page.locator('.field-error:not(:empty)').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
