// Single sign-on (issue 33) end to end in Chromium against a real, certified OpenID Provider run in
// the test (oidc-provider, on 127.0.0.1 port 0): a person logs in on the provider's own login and
// consent pages and lands in the dashboard with the role and scope their claims map to; a claim
// changed at the provider is a new role at the next login (and ends the user's older sessions);
// and callbacks tampered with (state, a code from another login, the nonce, another browser) open
// no session.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { type Json, record, startTestServer, type TestServer } from './helpers/client.js';
import { keepLocal, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { startTestProvider, type TestProvider } from './helpers/oidc-provider.js';
import { rawSql } from './helpers/raw-sql.js';

const CLIENT = { clientId: 'waypost-dashboard', clientSecret: 'a-client-secret-of-the-test-provider' };

describe('single sign-on with OpenID Connect, in Chromium, against a real OpenID Provider', () => {
  let provider: TestProvider;
  let server: TestServer;
  let browser: Browser;
  // Each login costs two of the per-address login tokens: the clock moves on between logins.
  let offsetMs = 0;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    provider = await startTestProvider();
    server = await startTestServer(backends[0]!, {
      now: () => Date.now() + offsetMs,
      oidcIssuer: provider.issuer,
      oidcClientId: CLIENT.clientId,
      oidcClientSecret: CLIENT.clientSecret,
      oidcScopes: 'openid waypost',
      oidcRoleMap: { 'fleet-admins': 'owner', dispatch: 'operator' },
      oidcOrgsClaim: 'waypost_orgs',
      oidcGroupsClaim: 'waypost_groups',
    });
    provider.configure({ ...CLIENT, redirectUri: `${server.url}/api/oidc/callback` });
    for (const [org, uuid, lat] of [
      ['acme', 'phone-a', 10],
      ['beta', 'phone-b', 20],
    ] as const) {
      const device = await register(server, org, uuid);
      await call(server, 'POST', '/api/locations', {
        token: device.accessToken,
        body: { location: record(`${uuid}-1`, lat, lat) },
      });
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await provider?.close();
  });

  /** A fresh browser (its own cookies at both sites) whose every request stays on 127.0.0.1. */
  const newPage = async (): Promise<{ page: Page; problems: string[]; context: BrowserContext }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await keepLocal(page, problems);
    // The provider's development pages import a web font: refused quietly (nothing of ours).
    await page.route('https://fonts.googleapis.com/**', (route) => route.abort('blockedbyclient'));
    return { page, problems, context };
  };

  /** The provider's own pages, as a person uses them: its login form (any password), then consent. */
  const throughProvider = async (page: Page, login: string) => {
    await page.locator('input[name=login]').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.fill('input[name=login]', login);
    await page.fill('input[name=password]', 'any password at the test provider');
    await page.click('button[type=submit]');
    await page.getByRole('button', { name: 'Continue' }).click({ timeout: UI_TIMEOUT_MS });
  };

  /**
   * Runs a login's last step and waits for the dashboard to show `who`. A callback the server
   * refused fails naming its answer; a dashboard that never showed fails naming what the page
   * showed instead (not only a timeout).
   */
  const intoDashboard = async (page: Page, who: string, lastStep: () => Promise<void>) => {
    const callback = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/oidc/callback', {
      timeout: 2 * UI_TIMEOUT_MS,
    });
    await lastStep();
    const answer = await callback;
    const refusal = answer.status() === 303 ? '' : await answer.text().catch(() => '');
    expect(`${answer.status()} ${answer.headers()['location']}`, refusal).toBe('303 /');
    try {
      await page
        .locator('#whoami')
        .filter({ hasText: who })
        .waitFor({ timeout: 2 * UI_TIMEOUT_MS });
    } catch (error) {
      const shown = (
        await page
          .locator('body')
          .innerText()
          .catch(() => '(unreadable)')
      ).slice(0, 400);
      throw new Error(`the dashboard never showed "${who}" at ${page.url()}; it showed: ${shown}`, { cause: error });
    }
  };

  const sessionOf = (page: Page): Promise<Json> =>
    page.evaluate(async () => (await fetch('/api/session', { credentials: 'same-origin' })).json());

  const sessionCookie = async (context: BrowserContext) =>
    (await context.cookies(server.url)).find((cookie) => cookie.name === 'waypost_session') ?? null;

  it('logs in on the provider pages into the dashboard with the mapped role and scope; a claim change is a new role at the next login', async () => {
    provider.accounts.set('alice', { waypost_role: 'dispatch', waypost_orgs: ['acme'] });
    offsetMs += 60_000;
    const { page, problems, context } = await newPage();
    // A session id planted in the browser before the login (session fixation) is never the session.
    const planted = 'P'.repeat(43);
    await context.addCookies([{ name: 'waypost_session', value: planted, url: server.url }]);
    await page.goto(`${server.url}/`);
    await page.locator('#sso').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await page.click('#sso a');
    await intoDashboard(page, 'sso:alice (operator)', () => throughProvider(page, 'alice'));
    await page
      .locator('#status')
      .filter({ hasText: 'live' })
      .waitFor({ timeout: 2 * UI_TIMEOUT_MS });
    expect(page.url()).toBe(`${server.url}/`);
    expect(await page.locator('#whoami').textContent()).toBe('sso:alice (operator)');
    expect(await sessionOf(page)).toEqual({
      authenticated: true,
      user: 'sso:alice',
      role: 'operator',
      orgs: ['acme'],
      groups: null,
    });
    // Limited to acme by the claim: beta's device is nowhere in the dashboard.
    await expect.poll(() => page.locator('#devices li').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(await page.locator('#devices').textContent()).toContain('phone-a');
    expect(await page.locator('#devices').textContent()).not.toContain('phone-b');
    expect(await page.locator('#users-panel').isHidden()).toBe(true);
    // The session cookie is HttpOnly; the login's own cookie is gone once used.
    expect(await page.evaluate('document.cookie')).toBe('');
    expect((await sessionCookie(context))!.value).not.toBe(planted);
    expect(
      (await fetch(`${server.url}/api/session`, { headers: { cookie: `waypost_session=${planted}` } })).status,
    ).toBe(401);
    const names = (await context.cookies(server.url)).map((c) => c.name);
    expect(names).toContain('waypost_session');
    expect(names).not.toContain('waypost_oidc');

    // The provider now puts alice among the fleet admins, over every device: at her next login she is an owner.
    provider.accounts.set('alice', { waypost_role: ['dispatch', 'fleet-admins'], waypost_orgs: ['*'] });
    offsetMs += 60_000;
    await page.click('#logout');
    await page.locator('#login').waitFor({ timeout: UI_TIMEOUT_MS });
    // The provider remembers her login and consent: straight back.
    await intoDashboard(page, 'sso:alice (owner)', () => page.click('#sso a'));
    await expect.poll(() => page.locator('#devices li').count(), { timeout: UI_TIMEOUT_MS }).toBe(2);
    expect(await page.locator('#users-panel').isHidden()).toBe(false);

    // Demoted at the provider (a viewer of beta): a login elsewhere ends the session held here.
    provider.accounts.set('alice', { waypost_role: 'viewer', waypost_orgs: ['beta'] });
    offsetMs += 60_000;
    const other = await newPage();
    await other.page.goto(`${server.url}/api/oidc/login`);
    await intoDashboard(other.page, 'sso:alice (viewer)', () => throughProvider(other.page, 'alice'));
    expect(await sessionOf(page)).toMatchObject({ code: 'NO_SESSION' });
    const users = (await server.admin('/api/users')).body as Json[];
    expect(users.find((u) => u.name === 'sso:alice')).toMatchObject({ role: 'viewer', orgs: ['beta'] });
    // Audit trail: each login named with the role it gave.
    const audit = (await server.admin('/api/audit')).body as Json;
    const logins = (audit.entries ?? audit).filter((e: Json) => e.action === 'GET /api/oidc/callback');
    expect(logins.map((e: Json) => e.actor)).toEqual(['user:sso:alice', 'user:sso:alice', 'user:sso:alice']);
    expect([...problems, ...other.problems]).toEqual([]);
  }, 90_000); // many page loads on a shared machine

  /**
   * Starts a login in this browser and holds the provider's redirect back: the callback URL it
   * carried. Chromium hands a route only a redirect chain's first request, so every hop of the
   * login (this server's /api/oidc/ and the provider) is fetched here, each redirect answered as
   * a page that goes on at once (a new navigation, routed again), and the one to the callback
   * kept instead of followed.
   */
  const heldCallback = async (page: Page, login: string | null): Promise<URL> => {
    let held: URL | null = null;
    const hop = (url: URL) =>
      url.origin === provider.issuer || (url.origin === server.url && url.pathname.startsWith('/api/oidc/'));
    await page.route(hop, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers()['location'];
      const next = location ? new URL(location, route.request().url()) : null;
      if (next && next.origin === server.url && next.pathname === '/api/oidc/callback') {
        held = next;
        return route.fulfill({ status: 200, contentType: 'text/plain', body: 'held by the test' });
      }
      if (!next) return route.fulfill({ response });
      // A redirect followed by a new navigation (a page that goes on at once): routed again.
      const headers = Object.fromEntries(
        response
          .headersArray()
          .filter((h) => h.name.toLowerCase() === 'set-cookie')
          .map((h) => [h.name, h.value]),
      );
      return route.fulfill({
        status: 200,
        headers,
        contentType: 'text/html',
        body: `<meta http-equiv="refresh" content="0;url=${next.href.replace(/"/g, '&quot;')}">`,
      });
    });
    offsetMs += 60_000;
    await page.goto(`${server.url}/api/oidc/login`);
    if (login) await throughProvider(page, login);
    await expect.poll(() => held, { timeout: UI_TIMEOUT_MS, message: 'the provider redirected back' }).not.toBeNull();
    // Settled on the held page: no navigation of this login is still under way.
    await page.getByText('held by the test').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.unroute(hop);
    return held!;
  };

  /** Goes to a callback URL in this browser: the status and body the server answered. */
  const land = async (page: Page, url: URL): Promise<{ status: number; body: Json }> => {
    offsetMs += 60_000;
    const response = (await page.goto(url.href))!;
    const text = await response.text();
    return { status: response.status(), body: text.startsWith('{') ? JSON.parse(text) : text };
  };

  it('refuses a callback whose state, code, nonce or browser is not the login it started, opening no session', async () => {
    provider.accounts.set('bob', { waypost_role: 'owner', waypost_orgs: ['*'] });
    const { page, context } = await newPage();

    // State changed on the way back: refused, and the login it belonged to cannot be finished after.
    const first = await heldCallback(page, 'bob');
    const forged = new URL(first);
    forged.searchParams.set('state', 'a-state-of-the-attacker');
    const badState = await land(page, forged);
    expect(badState).toMatchObject({ status: 401, body: { code: 'OIDC_REFUSED' } });
    expect(badState.body.error).toMatch(/"state"/);
    expect(await land(page, first)).toMatchObject({ status: 400, body: { code: 'OIDC_NO_LOGIN' } });
    expect(await sessionCookie(context)).toBeNull();

    // A code from another login (an attacker's, injected with this browser's own state): the PKCE
    // verifier kept for this login does not match the challenge that code was issued for.
    const attacker = await newPage();
    const theirs = await heldCallback(attacker.page, 'mallory');
    const mine = await heldCallback(page, null);
    const injected = new URL(mine);
    injected.searchParams.set('code', theirs.searchParams.get('code')!);
    const refused = await land(page, injected);
    expect(refused).toMatchObject({ status: 401, body: { code: 'OIDC_REFUSED' } });
    expect(refused.body.error).toMatch(/invalid_grant/);
    expect(provider.grantErrors).toEqual(['code_verifier does not match code_challenge']);
    expect(await sessionCookie(context)).toBeNull();

    // The nonce kept for the login changed behind the server's back: the ID token's no longer matches.
    const third = await heldCallback(page, null);
    await rawSql(server.storage, `UPDATE oidc_logins SET nonce = ?`, ['not-the-nonce-sent']);
    const badNonce = await land(page, third);
    expect(badNonce).toMatchObject({ status: 401, body: { code: 'OIDC_REFUSED' } });
    expect(badNonce.body.error).toMatch(/"nonce"/);
    expect(badNonce.body.error).not.toContain(third.searchParams.get('code')!);
    expect(await sessionCookie(context)).toBeNull();

    // A whole, untouched callback replayed in another browser (login CSRF): no login started there.
    const fourth = await heldCallback(page, null);
    const stranger = await newPage();
    expect(await land(stranger.page, fourth)).toMatchObject({ status: 400, body: { code: 'OIDC_NO_LOGIN' } });
    expect(await sessionCookie(stranger.context)).toBeNull();
    // Nor in the attacker's, whose own login under way has another state.
    expect(await land(attacker.page, fourth)).toMatchObject({ status: 401, body: { code: 'OIDC_REFUSED' } });
    expect(await sessionCookie(attacker.context)).toBeNull();

    // And the same untouched callback in its own browser: the login goes through (the checks above
    // refused what was tampered with, not everything).
    offsetMs += 60_000;
    const landed = (await page.goto(fourth.href))!;
    // Through to the dashboard: a refusal here fails naming the server's answer, not a timeout.
    expect(`${landed.status()} ${new URL(landed.url()).pathname}`, await landed.text()).toBe('200 /');
    await page
      .locator('#whoami')
      .filter({ hasText: 'sso:bob (owner)' })
      .waitFor({ timeout: 2 * UI_TIMEOUT_MS });
    expect(await sessionCookie(context)).not.toBeNull();
  }, 90_000);
});
