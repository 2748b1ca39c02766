import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { backends } from '../../server/test/helpers/backends.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/client.js';
import { launchChromium } from './support/chromium.js';
import {
  enroll,
  enrollRefused,
  gatedTracker,
  goOfflineWhenDrained,
  openTracker,
  openTwoTabs,
  queueCount,
  queueEmptied,
  queuedUuids,
  recordFix,
  waitUntilStarted,
  type Tracker,
} from './support/tracker-page.js';

describe('the /track page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A fresh gate to `upstream` and a tracker context on it, per test. */
  const setup = (backgroundSync = true, upstream: TestServer = server) =>
    gatedTracker(browser, upstream.url, backgroundSync);

  it('enrolls, records the position and becomes a device the admin API lists with its track', async () => {
    const { gate, context } = await setup();
    const page = await openTracker(context, gate.url);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await enroll(page, 'phone of test');
    const uuids = [...(await recordFix(context, [page])), ...(await recordFix(context, [page]))];
    await gate.delivers(uuids);
    const deviceId = await page.locator('#device-id').textContent();
    // The page names the device as the person typed it, on this visit and the next ones.
    expect(await page.locator('#device-label').textContent()).toBe('phone of test');
    // The fix's accuracy in metres by default; in feet once this browser chose imperial units in the dashboard.
    expect(await page.locator('#last-fix').textContent()).toContain('(±5 m)');
    await page.evaluate(() => localStorage.setItem('waypost.settings', JSON.stringify({ units: 'imperial' })));
    // Reloaded once the page has read its answers: a reload before that is the mid-upload case below.
    await queueEmptied(page);
    await page.reload();
    await page.locator('#device-label').filter({ hasText: 'phone of test' }).waitFor({ timeout: 10_000 });
    const later = await recordFix(context, [page]);
    await gate.delivers(later);
    expect(await page.locator('#last-fix').textContent()).toContain('(±16 ft)');
    const devices = await server.admin('/api/devices');
    const device = devices.body.find((d: { id?: string; deviceId?: string }) => (d.id ?? d.deviceId) === deviceId);
    expect(device).toMatchObject({ name: 'phone of test' });
    expect(new Set(gate.delivered).size).toBe(gate.delivered.length);
    // The reloaded page restores its last upload's outcome from its queue's state, as it loads.
    await page
      .locator('#last-upload')
      .filter({ hasText: /delivered \(HTTP 200\)/ })
      .waitFor({ timeout: 10_000 });
    // Served under the server's strict policy, and nothing of the page needed more.
    const response = await fetch(`${server.url}/track/`);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
    expect(violations).toEqual([]);
    // Installable as an app: Chromium's own check (manifest, icons, service worker, secure context).
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    // Test contexts are incognito-like, which alone keeps Chromium from offering the install; a
    // missing manifest field, icon or worker would be listed here too.
    expect(installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);
  });

  it('enrolls under registration "secret" only with the enrollment code, sent in a header', async () => {
    const secretServer = await startTestServer(backends[0]!, {
      registration: 'secret',
      registrationSecret: 'enroll-me-please',
    });
    onTestFinished(() => secretServer.stop());
    const { gate, context } = await setup(true, secretServer);
    const page = await openTracker(context, gate.url);
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    // Said in the page's words (the code field), not the API's (a header).
    await enrollRefused(page, 'secret phone', 'This server asks for an enrollment code: type it into the code field.');
    await page.fill('#enroll-code', 'not-the-code');
    await page.click('#enroll-form button[type=submit]');
    await page.locator('#enroll-error').filter({ hasText: 'The enrollment code is not the right one.' }).waitFor();
    await page.fill('#enroll-code', 'enroll-me-please');
    await enroll(page, 'secret phone');
    const uuids = await recordFix(context, [page]);
    await gate.delivers(uuids);
    const devices = await secretServer.admin('/api/devices');
    expect(devices.body.map((d: { name: string }) => d.name)).toEqual(['secret phone']);
    expect(urls.filter((u) => u.includes('enroll-me-please'))).toEqual([]);
  });

  it('enrolls under registration "admin" with the admin token typed as the code, and says so when it is missing', async () => {
    const adminServer = await startTestServer(backends[0]!, { registration: 'admin' });
    onTestFinished(() => adminServer.stop());
    const { gate, context } = await setup(true, adminServer);
    const page = await openTracker(context, gate.url);
    await enrollRefused(
      page,
      'admin phone',
      'This server enrolls devices with its admin token only: type it into the code field.',
    );
    await page.fill('#enroll-code', adminServer.adminToken);
    await enroll(page, 'admin phone');
    await gate.delivers(await recordFix(context, [page]));
    const devices = await adminServer.admin('/api/devices');
    expect(devices.body.map((d: { name: string }) => d.name)).toEqual(['admin phone']);
  });

  it('offline, reloaded while offline, then online: every record reaches the server once, in order', async () => {
    const { gate, context } = await setup();
    const page = await openTracker(context, gate.url);
    await enroll(page, 'offline phone');
    await goOfflineWhenDrained(context, page);
    const before = gate.delivered.length;
    const recorded = [...(await recordFix(context, [page])), ...(await recordFix(context, [page]))];
    // The page comes back from the service worker's copy; the queue from IndexedDB.
    await page.reload();
    await waitUntilStarted(page);
    recorded.push(...(await recordFix(context, [page])));
    // The queue also holds what the SDK recorded itself (the motion change of start()).
    const queued = await queuedUuids(page);
    expect(queued).toEqual(expect.arrayContaining(recorded));
    expect(queued.filter((u) => recorded.includes(u))).toEqual(recorded);
    expect(gate.delivered.length).toBe(before);

    await context.setOffline(false);
    await gate.delivers(queued);
    expect(gate.delivered.slice(before)).toEqual(queued);
    await expect.poll(() => queueCount(page)).toBe(0);
  });

  it.each(['reload', 'crash'] as const)(
    'a %s in the middle of an upload loses nothing and leaves nothing locked',
    async (how) => {
      const { gate, context } = await setup();
      const page = await openTracker(context, gate.url);
      await enroll(page, `${how} phone`);
      const held = gate.hold();
      const recorded = await recordFix(context, [page]);
      await held; // the upload is in flight: its record is locked in IndexedDB
      if (how === 'reload') {
        await page.reload();
      } else {
        const cdp = await context.newCDPSession(page);
        const crashed = page.waitForEvent('crash');
        // Page.crash never answers: the renderer it would answer from is gone.
        void cdp.send('Page.crash').catch(() => undefined);
        await crashed;
        await page.close();
      }
      gate.release(); // the held upload never reaches the server

      const next = how === 'reload' ? page : await openTracker(context, gate.url);
      await waitUntilStarted(next);
      recorded.push(...(await recordFix(context, [next])));
      await gate.delivers(recorded);
      expect(new Set(gate.delivered).size).toBe(gate.delivered.length);
      await expect.poll(() => queueCount(next)).toBe(0);
    },
  );

  it('two tabs share one queue: each record is uploaded once', async () => {
    const { gate, context } = await setup();
    const [first, second] = await openTwoTabs(context, gate.url, 'two tabs');
    const recorded: string[] = [];
    for (let i = 0; i < 4; i++) recorded.push(...(await recordFix(context, [first, second])));
    expect(new Set(recorded).size).toBe(8);
    await gate.delivers(recorded);
    await expect.poll(() => queueCount(first)).toBe(0);
    expect(new Set(gate.delivered).size).toBe(gate.delivered.length);
    const held = await first.evaluate(async () => (await navigator.locks.query()).held?.map((l) => l.name));
    expect(held).toEqual(['waypost-upload:waypost-track']);
  });

  it('sync() in a tab that does not lead is run by the leading tab and resolves with what it delivered', async () => {
    const { gate, context } = await setup();
    const [first, second] = await openTwoTabs(context, gate.url, 'sync from the second tab');
    for (const page of [first, second]) {
      await page.evaluate(() =>
        (globalThis as unknown as Tracker).waypostTracker.bg.setConfig({ http: { autoSync: false } }),
      );
    }
    const recorded = [...(await recordFix(context, [first, second])), ...(await recordFix(context, [first, second]))];
    const synced = await second.evaluate(async () =>
      (await (globalThis as unknown as Tracker).waypostTracker.bg.sync()).map((l) => l.uuid),
    );
    expect(synced).toEqual(expect.arrayContaining(recorded));
    // Each once, in this order (an upload the leader began before autoSync went off is elsewhere).
    expect(gate.delivered.filter((u) => synced.includes(u))).toEqual(synced);
    const locks = await second.evaluate(async () => {
      const state = await navigator.locks.query();
      return { held: state.held?.length, pending: state.pending?.length };
    });
    expect(locks).toEqual({ held: 1, pending: 1 });
    expect(await queueCount(second)).toBe(0);
  });

  it.each([
    ['Background Sync', 'ServiceWorker.dispatchSyncEvent'],
    ['Periodic Background Sync', 'ServiceWorker.dispatchPeriodicSyncEvent'],
  ] as const)('the service worker drains the queue after the page is closed (%s)', async (_name, method) => {
    // Periodic: no one-off sync may be registered, or the browser would fire it itself once online.
    const { gate, context } = await setup(method === 'ServiceWorker.dispatchSyncEvent');
    const page = await openTracker(context, gate.url);
    await enroll(page, 'closed tab');
    await goOfflineWhenDrained(context, page);
    const before = gate.delivered.length;
    const recorded = [...(await recordFix(context, [page])), ...(await recordFix(context, [page]))];
    const queued = await queuedUuids(page);
    expect(queued).toEqual(expect.arrayContaining(recorded));
    await page.close();
    expect(gate.delivered.length).toBe(before);
    // Back online the browser may fire the registered one-off sync itself; either way only the
    // service worker is left to upload.
    await context.setOffline(false);

    // DevTools' "Background services > Sync" button: fire the sync event at the registration.
    const blank = await context.newPage();
    const cdp = await context.newCDPSession(blank);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r: { scopeURL: string }) => r.scopeURL === `${gate.url}/track/`);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const event = { origin: gate.url, registrationId: await registrationId, tag: 'waypost-upload' };
    await (method === 'ServiceWorker.dispatchSyncEvent'
      ? cdp.send(method, { ...event, lastChance: false })
      : cdp.send(method, event));
    await gate.delivers(queued);
    expect(gate.delivered.slice(before)).toEqual(queued);
  });
});
