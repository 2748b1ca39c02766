// The dashboard's password login (issue 33) in real Chromium: a user logs in by name and
// password, is named (as text) beside Log out, sees the fleet, and is sent back to the login
// when an owner demotes them (their session ends at once).
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { keepLocal, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const PASSWORD = 'correct horse battery';

describe('the dashboard with a user account', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    expect((await server.post('/locations', { location: record('d-1'), device_id: 'van-7' })).status).toBe(200);
    // A name that is markup is refused at creation (and every name is set as text, never parsed).
    const name = 'ops@<b>x</b>';
    expect(
      (
        await server.admin('/api/users', {
          method: 'POST',
          body: { name: 'dispatch', password: PASSWORD, role: 'operator' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await server.admin('/api/users', { method: 'POST', body: { name, password: PASSWORD, role: 'viewer' } })).status,
    ).toBe(400);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('logs in with a name and password, names the user, and returns to the login once demoted', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await keepLocal(page, problems);
    await page.goto(`${server.url}/`);
    await page.locator('#login').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.fill('#user-input', 'dispatch');
    await page.fill('#password-input', 'not the password');
    await page.click('#login button[type=submit]');
    await page
      .locator('#login-error')
      .filter({ hasText: 'Wrong user name or password' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.inputValue('#password-input')).toBe(''); // a refused password is not left in the field

    await page.fill('#user-input', 'dispatch');
    await page.fill('#password-input', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.locator('#status').filter({ hasText: 'live' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('#whoami').textContent()).toBe('dispatch (operator)');
    await expect.poll(() => page.locator('#devices li').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    // The cookie is HttpOnly: page script cannot read the session.
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // An owner demotes the user: their session ends, and the next page load asks for a login.
    const demoted = await server.admin('/api/users/dispatch', { method: 'PATCH', body: { role: 'viewer' } });
    expect(demoted.body).toMatchObject({ sessionsEnded: 1 });
    await page.reload();
    await page.locator('#login').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('#app').isHidden()).toBe(true);
    await page.fill('#user-input', 'dispatch');
    await page.fill('#password-input', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.locator('#whoami').filter({ hasText: 'dispatch (viewer)' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(problems).toEqual([]);
  });
});
