// The Users panel limits a user to organizations or device groups (issue 33), in real Chromium at
// 1440x900 and 390x844: the owner (admin token) creates through the panel a viewer limited to org
// acme and one limited to a device group; each logs in on a page of their own and sees exactly
// their devices; the owner widens one to all devices, which ends their session, and after a new
// login they see the whole fleet. Org names are set as text: one named as markup stays words.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, DESKTOP, openDashboard, overflowing, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const PASSWORD = 'correct horse battery staple';
const MARKUP_ORG = '<img src=x onerror=alert(1)>';
// Long and unbroken: a name that must wrap in the panel, not widen it.
const LONG_ORG = 'northern-regional-distribution-and-logistics-operations-centre-0001';
/** Each org's one device (its uuid is its id); van-7 is in no org, only in the group "vans". */
const ORG_DEVICES = [
  ['acme', 'acme-van'],
  ['beta', 'beta-van'],
  [MARKUP_ORG, 'odd-van'],
  [LONG_ORG, 'long-van'],
] as const;
const EVERY_DEVICE = [...ORG_DEVICES.map(([, device]) => device), 'van-7'].sort();

type Limits = { orgs: string[] | null; groups: string[] | null };

describe('the Users panel limits users to orgs and device groups', () => {
  let server: TestServer;
  let browser: Browser;

  const userLimits = async (name: string): Promise<Limits | undefined> => {
    const users = (await server.admin('/api/users')).body as ({ name: string } & Limits)[];
    const user = users.find((u) => u.name === name);
    return user && { orgs: user.orgs, groups: user.groups };
  };

  /** The owner's dashboard (the admin token) with the Users panel open; alerts are problems. */
  const ownerPanel = async (viewport: { width: number; height: number }) => {
    const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
    // Every action bounded: a missing checkbox fails naming its locator, within the test's time.
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.click('#users-panel summary');
    await page.locator('#new-user').waitFor({ timeout: UI_TIMEOUT_MS });
    return { page, problems };
  };

  const status = (page: Page, text: string) =>
    page.locator('#users-status').filter({ hasText: text }).waitFor({ timeout: UI_TIMEOUT_MS });

  /** Creates a viewer through the panel, limited to the named orgs and groups (checkboxes by label). */
  async function createLimited(page: Page, name: string, orgs: string[], groups: string[]): Promise<void> {
    await page.fill('#new-user-name', name);
    await page.fill('#new-user-password', PASSWORD);
    await page.selectOption('#new-user-role', 'viewer');
    await page.locator('#new-user input[type=radio][value=only]').check();
    for (const org of orgs) await page.locator('#new-user .limit-orgs').getByLabel(org, { exact: true }).check();
    for (const group of groups)
      await page.locator('#new-user .limit-groups').getByLabel(group, { exact: true }).check();
    expect(await overflowing(page, ['#users > ul > li', '#new-user', '#new-user .choice'])).toEqual([]);
    await page.click('#new-user button[type=submit]');
    await status(page, `User ${name} created`);
  }

  /** The ids in the device list, in order. */
  const listed = async (page: Page): Promise<string[]> =>
    (await page.locator('#devices li').evaluateAll((items) => items.map((li) => li.getAttribute('data-device'))))
      .map(String)
      .sort();

  /** A user's own dashboard on a fresh page, once the list holds `expected` exactly. */
  async function userSees(
    viewport: { width: number; height: number },
    name: string,
    expected: string[],
  ): Promise<{ page: Page; problems: string[] }> {
    const opened = await openDashboard(browser, server.url, '', viewport, { user: { name, password: PASSWORD } });
    opened.page.setDefaultTimeout(UI_TIMEOUT_MS);
    await expect
      .poll(() => listed(opened.page), { timeout: UI_TIMEOUT_MS, message: `${name}'s device list` })
      .toEqual(expected);
    return opened;
  }

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    for (const [org, uuid] of ORG_DEVICES) {
      const { accessToken } = await register(server, org, uuid);
      const upload = { token: accessToken, body: { location: record(`${uuid}-1`) } };
      expect((await call(server, 'POST', '/api/locations', upload)).status).toBe(200);
    }
    expect((await server.post('/locations', { location: record('v7-1'), device_id: 'van-7' })).status).toBe(200);
    const group = await server.admin('/api/groups/vans', { method: 'PUT', body: { devices: ['van-7'] } });
    expect(group.status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`limits a viewer to org acme, another to a group, then widens to all devices (${label})`, async () => {
      const acmeUser = `acme-eye-${viewport.width}`;
      const groupUser = `vans-eye-${viewport.width}`;
      const owner = await ownerPanel(viewport);
      const { page } = owner;

      // Limited to nothing at all: the API's refusal, in its words, and no user made.
      await page.fill('#new-user-name', 'nobody');
      await page.fill('#new-user-password', PASSWORD);
      await page.locator('#new-user input[type=radio][value=only]').check();
      await page.click('#new-user button[type=submit]');
      await status(page, 'body/orgs must NOT have fewer than 1 items');
      expect(await userLimits('nobody')).toBeUndefined();

      await createLimited(page, acmeUser, ['acme'], []);
      expect(await userLimits(acmeUser)).toEqual({ orgs: ['acme'], groups: null });
      await createLimited(page, groupUser, [], ['vans']);
      expect(await userLimits(groupUser)).toEqual({ orgs: null, groups: ['vans'] });
      const row = (name: string) => page.locator(`#users li[data-user="${name}"]`);
      expect(await row(acmeUser).locator('.limits-text').textContent()).toBe('Orgs: acme');
      expect(await row(groupUser).locator('.limits-text').textContent()).toBe('Groups: vans');

      // Each sees exactly their devices, and nothing of another org by name.
      const acme = await userSees(viewport, acmeUser, ['acme-van']);
      const text = await acme.page.locator('body').innerText();
      for (const hidden of ['beta', 'odd-van', 'long-van', 'van-7', '<img']) expect(text).not.toContain(hidden);
      const vans = await userSees(viewport, groupUser, ['van-7']);
      expect(await vans.page.locator('body').innerText()).not.toContain('acme-van');

      // Widened to all devices: the change ends the user's session; after a new login, the fleet.
      await row(acmeUser).locator('.limits summary').click();
      expect(await overflowing(page, [`#users li[data-user="${acmeUser}"] .choice`, '#users > ul > li'])).toEqual([]);
      await row(acmeUser).locator('input[type=radio][value=all]').check();
      await row(acmeUser).locator('button.save-limits').click();
      await status(page, `Limits of ${acmeUser}: All devices`);
      expect(await userLimits(acmeUser)).toEqual({ orgs: null, groups: null });
      expect(await row(acmeUser).locator('.limits-text').textContent()).toBe('All devices');

      await acme.page.reload();
      await acme.page.locator('#login').waitFor({ timeout: UI_TIMEOUT_MS });
      await acme.page.fill('#user-input', acmeUser);
      await acme.page.fill('#password-input', PASSWORD);
      await acme.page.click('#login button[type=submit]');
      await expect
        .poll(() => listed(acme.page), { timeout: UI_TIMEOUT_MS, message: `${acmeUser}'s widened device list` })
        .toEqual(EVERY_DEVICE);

      expect(await overflowing(page, ['#users > ul > li', '#new-user', '#users-status'])).toEqual([]);
      expect([...owner.problems, ...acme.problems, ...vans.problems]).toEqual([]);
      for (const opened of [page, acme.page, vans.page]) await opened.close();
    }, 120_000);
  }

  it("offers an owner limited to one org no Users or Device groups panel (the fleet's), and no error", async () => {
    const body = { name: 'acme-owner', password: PASSWORD, role: 'owner', orgs: ['acme'] };
    expect((await server.admin('/api/users', { method: 'POST', body })).status).toBe(201);
    const { page, problems } = await userSees(DESKTOP, 'acme-owner', ['acme-van']);
    expect(await page.locator('#users-panel').isHidden()).toBe(true);
    expect(await page.locator('#groups-panel').isHidden()).toBe(true);
    expect(await page.locator('#status').textContent()).not.toContain('error');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows an org named as markup as text, in the choices and in a user limited to it', async () => {
    const { page, problems } = await ownerPanel(DESKTOP);
    await createLimited(page, 'odd-eye', [MARKUP_ORG], []);
    expect(await userLimits('odd-eye')).toEqual({ orgs: [MARKUP_ORG], groups: null });
    const row = page.locator('#users li[data-user="odd-eye"]');
    expect(await row.locator('.limits-text').textContent()).toBe(`Orgs: ${MARKUP_ORG}`);
    expect(await page.locator('#users img').count()).toBe(0);

    // Changed in its row: the group too; the org stays chosen, its name still text.
    await row.locator('.limits summary').click();
    await row.locator('.limit-groups').getByLabel('vans', { exact: true }).check();
    await row.locator('button.save-limits').click();
    await status(page, `Limits of odd-eye: Orgs: ${MARKUP_ORG} · Groups: vans`);
    expect(await userLimits('odd-eye')).toEqual({ orgs: [MARKUP_ORG], groups: ['vans'] });
    expect(await page.locator('#users img').count()).toBe(0);

    // A group made in the Device groups panel is offered in the Users panel at once.
    await page.click('#groups-panel summary');
    await page.fill('#new-group-name', 'north');
    await page.fill('#new-group-devices', 'acme-van');
    await page.click('#new-group button[type=submit]');
    await page.locator('#groups-status').filter({ hasText: 'Group north saved' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.locator('#new-user input[type=radio][value=only]').check();
    await page
      .locator('#new-user .limit-groups')
      .getByLabel('north', { exact: true })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
