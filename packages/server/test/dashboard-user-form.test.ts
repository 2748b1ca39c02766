import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

// The Users panel (issue 42): its fields have labels (a screen reader and getByLabel find them), and
// the server's refusals (real ones, from the real routes) read as a sentence beside the field they
// are about, not as the schema's words ("body/password must NOT have fewer than 12 characters").
const PASSWORD = 'correct horse battery staple';

describe('the Users panel labels its fields and says refusals in words', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const nina = { name: 'nina', password: PASSWORD, role: 'viewer' };
    expect((await server.admin('/api/users', { method: 'POST', body: nina })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('finds every field by its label and shows each refusal beside its field', async () => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, BOTH_SIZES[0]![1]);
    await page.click('#users-panel summary');
    const form = page.locator('#new-user');
    await form.waitFor({ timeout: UI_TIMEOUT_MS });
    const name = form.getByLabel('Name', { exact: true });
    const password = form.getByLabel('Password', { exact: true });
    expect(await name.getAttribute('id')).toBe('new-user-name');
    expect(await password.getAttribute('id')).toBe('new-user-password');
    expect(await form.getByLabel('Role', { exact: true }).getAttribute('id')).toBe('new-user-role');

    // A short password: the server refuses (INVALID_BODY, body/password); the form says why, in words.
    await name.fill('omar');
    await password.fill('short');
    await form.locator('button[type=submit]').click();
    const passwordError = page.locator('#new-user-error-password');
    await expect
      .poll(() => passwordError.textContent(), { timeout: UI_TIMEOUT_MS })
      .toBe('A password needs at least 12 characters (and at most 1024).');
    expect(await page.locator('#new-user-error-name').textContent()).toBe('');

    // A name taken (USER_EXISTS): the sentence is beside the name, the password's error is gone.
    await name.fill('nina');
    await password.fill(PASSWORD);
    await form.locator('button[type=submit]').click();
    await expect
      .poll(() => page.locator('#new-user-error-name').textContent(), { timeout: UI_TIMEOUT_MS })
      .toBe('A user of this name exists already: choose another.');
    expect(await passwordError.textContent()).toBe('');

    // A row's password field has its label too, and its refusal shows in that row.
    const row = page.locator('#users li[data-user="nina"]');
    await row.getByLabel('New password for nina').fill('short');
    await row.locator('button.reset').click();
    await expect
      .poll(() => row.locator('.field-error').textContent(), { timeout: UI_TIMEOUT_MS })
      .toBe('A password needs at least 12 characters (and at most 1024).');
    expect(await page.locator('#users .field-error, #new-user .field-error').allTextContents()).not.toContainEqual(
      expect.stringContaining('body/'),
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
