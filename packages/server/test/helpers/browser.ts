import type { Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Logs in through the dashboard's own form, as a person would. */
export async function logInThroughForm(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.locator('#login').waitFor();
  await page.fill('#token-input', token);
  await page.click('#login button[type=submit]');
  await page.locator('#app').waitFor();
}
