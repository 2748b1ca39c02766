import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

describe('the dashboard in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    await server.post('/locations', {
      location: [record('p1', 48.1, 11.5), record('p2', 48.11, 11.51, '2024-05-01T10:01:00.000Z')],
      device_id: 'tracker-1',
    });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server.stop();
  });

  it('shows devices offline, updates positions live and queues a command that reaches the device', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const hosts = new Set<string>();
    page.on('request', (request) => hosts.add(new URL(request.url()).hostname));
    // The live feed authenticates with the session cookie (no credential in any URL): log in through
    // the context's request API, which shares the page's cookies.
    const login = await page.context().request.post(`${server.url}/api/session`, {
      data: { token: server.adminToken },
    });
    expect(login.status()).toBe(204);
    await page.addInitScript((token) => {
      (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
        'waypost.adminToken',
        token,
      );
    }, server.adminToken);
    await page.goto(`${server.url}/`);
    const item = page.locator('#devices li[data-device="tracker-1"]');
    await item.locator('.position').filter({ hasText: '48.11000, 11.51000' }).waitFor();
    await page.locator('#status').filter({ hasText: 'live' }).waitFor();
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem(
          'waypost.adminToken',
        ),
      ),
    ).toBe(server.adminToken);

    const upload = await server.post('/locations', {
      location: record('p3', 48.2, 11.6, '2024-05-01T10:05:00.000Z'),
      device_id: 'tracker-1',
    });
    expect(upload.body.stored).toBe(1);
    await item.locator('.position').filter({ hasText: '48.20000, 11.60000' }).waitFor();
    await expect.poll(() => page.locator('path.leaflet-interactive').count()).toBeGreaterThanOrEqual(2);

    await page.selectOption('#command-device', 'tracker-1');
    await page.selectOption('#command-name', 'changePace');
    await page.fill('#command-argument', 'true');
    await page.click('#command-form button[type=submit]');
    await page.locator('#command-result').filter({ hasText: 'Queued' }).waitFor();
    const reply = await server.post('/locations', { location: record('p4', 48.21, 11.61), device_id: 'tracker-1' });
    expect(reply.body.background_geolocation).toEqual([['changePace', true]]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}dashboard.png` });
    expect([...hosts]).toEqual(['127.0.0.1']);
    await page.close();
  });
});
