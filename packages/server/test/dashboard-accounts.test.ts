// The dashboard's password login (issue 33) in real Chromium: a user logs in by name and
// password, is named (as text) beside Log out, sees the fleet, and is sent back to the login
// when an owner demotes them (their session ends at once).
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { launchChromium, logInThroughForm } from './helpers/browser.js';
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
    browser = await launchChromium();
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
    expect(await page.evaluate('document.cookie')).toBe('');

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

  it('gives an owner a Users panel to create a user, change a role, reset a password and delete, names as text', async () => {
    expect(
      (await server.admin('/api/users', { method: 'POST', body: { name: 'boss', password: PASSWORD, role: 'owner' } }))
        .status,
    ).toBe(201);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await keepLocal(page, problems);
    await page.goto(`${server.url}/`);
    await page.fill('#user-input', 'boss');
    await page.fill('#password-input', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.locator('#whoami').filter({ hasText: 'boss (owner)' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.click('#users-panel summary');
    const row = (name: string) => page.locator(`#users li[data-user="${name}"]`);
    await row('dispatch').waitFor({ timeout: UI_TIMEOUT_MS });

    await page.fill('#new-user-name', 'nina');
    await page.fill('#new-user-password', PASSWORD);
    await page.selectOption('#new-user-role', 'operator');
    await page.click('#new-user button[type=submit]');
    await page.locator('#users-status').filter({ hasText: 'User nina created' }).waitFor({ timeout: UI_TIMEOUT_MS });
    // A refused name comes back as the server's message, as text.
    await page.fill('#new-user-name', '<img src=x onerror=alert(1)>');
    await page.fill('#new-user-password', PASSWORD);
    await page.click('#new-user button[type=submit]');
    await page
      .locator('#users-status')
      .filter({ hasText: 'body/name must match pattern' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('#users img').count()).toBe(0);

    await row('nina').locator('select').selectOption('viewer');
    await page.locator('#users-status').filter({ hasText: 'nina is now viewer' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await row('nina').locator('input[type=password]').fill('nina new passphrase');
    await row('nina').locator('button.reset').click();
    await page
      .locator('#users-status')
      .filter({ hasText: 'Password of nina reset' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    const users = (await server.admin('/api/users')).body as { name: string; role: string }[];
    expect(users.find((u) => u.name === 'nina')).toMatchObject({ role: 'viewer' });
    const login = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'nina', password: 'nina new passphrase' }),
    });
    expect(login.status).toBe(204);

    await row('nina').locator('button.delete').click();
    await page.locator('#users-status').filter({ hasText: 'nina deleted' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await row('nina').count()).toBe(0);
    expect(((await server.admin('/api/users')).body as { name: string }[]).map((u) => u.name)).not.toContain('nina');
    expect(problems).toEqual([]);
  });

  it('shows no Users panel to an operator or viewer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await keepLocal(page, []);
    await page.goto(`${server.url}/`);
    await page.fill('#user-input', 'dispatch');
    await page.fill('#password-input', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.locator('#whoami').filter({ hasText: 'dispatch (viewer)' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('#users-panel').isHidden()).toBe(true);
    expect(await page.locator('#groups-panel').isHidden()).toBe(true);
  });

  it("shows a user limited to org acme acme's device and never beta's", async () => {
    for (const [org, uuid] of [
      ['acme', 'acme-van'],
      ['beta', 'beta-van'],
    ] as const) {
      const { accessToken } = await register(server, org, uuid);
      expect(
        (await call(server, 'POST', '/api/locations', { token: accessToken, body: { location: record(`${uuid}-1`) } }))
          .status,
      ).toBe(200);
    }
    const user = { name: 'acme-ops', password: PASSWORD, role: 'viewer', orgs: ['acme'] };
    expect((await server.admin('/api/users', { method: 'POST', body: user })).status).toBe(201);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await keepLocal(page, problems);
    await page.goto(`${server.url}/`);
    await page.fill('#user-input', 'acme-ops');
    await page.fill('#password-input', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.locator('#devices li').filter({ hasText: 'acme-van' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('#devices li').count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toMatch(/beta|van-7/);
    expect(problems).toEqual([]);
  });

  it('gives an owner a Device groups panel; a user limited to the group sees its devices only', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await keepLocal(page, problems);
    await logInThroughForm(page, server.url, server.adminToken);
    await page.click('#groups-panel summary');
    await page.fill('#new-group-name', 'vans');
    await page.fill('#new-group-devices', 'van-7, acme-van');
    await page.click('#new-group button[type=submit]');
    await page.locator('#groups-status').filter({ hasText: 'Group vans saved' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await server.admin('/api/groups')).body).toMatchObject([{ name: 'vans', devices: ['acme-van', 'van-7'] }]);
    // An unknown device is refused, said as text, and the group is unchanged.
    const row = page.locator('li[data-group="vans"]');
    await row.locator('input').fill('van-7, <b>nope</b>');
    await row.locator('button.save').click();
    await page
      .locator('#groups-status')
      .filter({ hasText: 'No device "<b>nope</b>"' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('#groups b').count()).toBe(0);
    // Down to van-7 only.
    await page.locator('li[data-group="vans"] input').fill('van-7');
    await page.locator('li[data-group="vans"] button.save').click();
    await page.locator('#groups-status').filter({ hasText: 'vans saved' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await server.admin('/api/groups')).body).toMatchObject([{ name: 'vans', devices: ['van-7'] }]);

    const user = { name: 'van-watch', password: PASSWORD, role: 'viewer', groups: ['vans'] };
    expect((await server.admin('/api/users', { method: 'POST', body: user })).status).toBe(201);
    const limited = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    limited.on('pageerror', (error) => problems.push(error.message));
    await keepLocal(limited, problems);
    await limited.goto(`${server.url}/`);
    await limited.fill('#user-input', 'van-watch');
    await limited.fill('#password-input', PASSWORD);
    await limited.click('#login button[type=submit]');
    await limited.locator('#devices li').filter({ hasText: 'van-7' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await limited.locator('#devices li').count()).toBe(1);
    expect(await limited.locator('#groups-panel').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });
});
