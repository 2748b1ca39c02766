import type { Page } from 'playwright-core';

// The one Chromium every suite uses, with the same flags (the browser package's test support): in a
// full run the run's shared Chromium (one launch, a context per test), alone a launch of its own.
export { CHROMIUM as CHROMIUM_PATH, CHROMIUM_ARGS, launchChromium } from '../../../browser/test/support/chromium.js';

/** Logs in through the dashboard's own form, as a person would. */
export async function logInThroughForm(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.locator('#login').waitFor();
  await page.fill('#token-input', token);
  await page.click('#login button[type=submit]');
  await page.locator('#app').waitFor();
}
