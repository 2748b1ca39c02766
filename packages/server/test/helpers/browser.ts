import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../browser/test/support/chromium.js';

// The one Chromium every suite launches, with the same flags (the browser package's test support).
export { CHROMIUM as CHROMIUM_PATH, CHROMIUM_ARGS } from '../../../browser/test/support/chromium.js';

/** Debian's Chromium, started as every dashboard test starts it. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

/** Logs in through the dashboard's own form, as a person would. */
export async function logInThroughForm(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.locator('#login').waitFor();
  await page.fill('#token-input', token);
  await page.click('#login button[type=submit]');
  await page.locator('#app').waitFor();
}
