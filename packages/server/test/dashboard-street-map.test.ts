import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@waypost/server';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, DESKTOP, keepLocal, openDashboard, PHONE, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { lakeMbtiles, LOCAL_WATER, startStyleServer, waterShare } from './helpers/vector-tiles.js';

// The street map by default: a MapLibre style drawn under the tracks. Every style here is one the
// test serves itself on 127.0.0.1 (a lake cut into vector tiles in the test); any request past
// 127.0.0.1 is refused and fails the test (helpers/dashboard-page.ts keepLocal).
const [LAT, LON] = [45.5017, -73.5535];
const HOSTILE_CREDIT = '<img src=x onerror="window.pwned=1">Lake data © Test';

/** A port nothing listens on: a style there cannot be reached. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const csp = async (url: string, directive: string) =>
  (await fetch(`${url}/`)).headers
    .get('content-security-policy')!
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(directive + ' '));

describe('the street map', () => {
  let styles: Awaited<ReturnType<typeof startStyleServer>>;
  let styled: TestServer;
  let unreachable: TestServer;
  let local: TestServer;
  let broken: TestServer;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'waypost-street-'));

  beforeAll(async () => {
    styles = await startStyleServer(LAT, LON, HOSTILE_CREDIT);
    lakeMbtiles(join(dir, 'lake.mbtiles'), LAT, LON);
    [styled, unreachable, local, broken] = await Promise.all([
      startTestServer(backends[0]!, { mapStyle: styles.styleUrl }),
      startTestServer(backends[0]!, { mapStyle: `http://127.0.0.1:${await closedPort()}/style.json` }),
      startTestServer(backends[0]!, { tileFile: join(dir, 'lake.mbtiles') }),
      startTestServer(backends[0]!, { mapStyle: `${styles.url}/broken-style.json` }),
    ]);
    const fix = record('harbour', LAT, LON, new Date().toISOString());
    for (const server of [styled, unreachable, local, broken])
      expect((await server.post('/locations', { location: fix, device_id: 'ferry' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([styled?.stop(), unreachable?.stop(), local?.stop(), broken?.stop(), styles?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`draws the style's vector tiles under the device, credits them as text (${label})`, async () => {
      styles.requests.length = 0;
      const { page, problems } = await openDashboard(browser, styled.url, styled.adminToken, viewport);
      await page.locator('#map.has-vector-basemap').waitFor({ timeout: UI_TIMEOUT_MS });
      // Opened on the one device at city zoom: the lake around it fills much of the map.
      await expect.poll(() => waterShare(page), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0.2);
      expect(styles.requests).toContain('/style.json');
      expect(styles.requests.some((path) => /^\/tiles\/1[2-6]\/\d+\/\d+\.pbf$/.test(path))).toBe(true);
      // The style's credit is shown, as text: its markup never becomes an element.
      const credit = page.locator('.leaflet-control-attribution');
      await expect.poll(() => credit.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('Lake data © Test');
      expect(await credit.locator('img').count()).toBe(0);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(await page.locator('#basemap-hint').count()).toBe(0);
      // The device's marker is over the map, not under it.
      expect(await page.locator('path.device-marker[data-device="ferry"]').isVisible()).toBe(true);
      expect(problems).toEqual([]); // no CSP violation, no request past 127.0.0.1
      await page.close();
    });

    it(`says so and falls back to the outline when the style cannot load (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, unreachable.url, unreachable.adminToken, viewport);
      const hint = page.locator('#basemap-hint.basemap-failed');
      await hint.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await hint.textContent()).toContain('The street map could not be loaded (the style could not be reached)');
      expect(await hint.textContent()).toContain('--tiles FILE.mbtiles');
      // The outline took over: drawn, or (at this city zoom) hidden as too coarse.
      await expect
        .poll(() => page.locator('#map').getAttribute('class'), { timeout: UI_TIMEOUT_MS })
        .toContain('outline-hidden');
      expect(problems.filter((problem) => !problem.includes('net::ERR_CONNECTION_REFUSED'))).toEqual([]);
      await page.close();
    });
  }

  it('falls back to the outline when every tile of the style fails', async () => {
    const { page, problems } = await openDashboard(browser, broken.url, broken.adminToken, DESKTOP);
    const hint = page.locator('#basemap-hint.basemap-failed');
    await hint.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await hint.textContent()).toContain('its tiles could not be loaded');
    expect(await page.locator('#map.has-vector-basemap').count()).toBe(0);
    expect(problems.filter((problem) => !/500|Internal Server Error/.test(problem))).toEqual([]);
    await page.close();
  });

  it('draws a local vector MBTiles file with its built-in style: no request leaves the server', async () => {
    // Every request from the first one (the login page's too).
    const hosts = new Set<string>();
    const { page, problems } = await openDashboard(browser, local.url, local.adminToken, DESKTOP, {
      beforeLoad: (opened) => opened.on('request', (request) => hosts.add(new URL(request.url()).host)),
    });
    await page.locator('#map.has-vector-basemap').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => waterShare(page, '#map', LOCAL_WATER), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0.2);
    expect([...hosts]).toEqual([new URL(local.url).host]);
    // Gzipped in the file, sent as such: the browser inflates it.
    const tile = await fetch(`${local.url}/tiles/0/0/0`);
    expect(tile.headers.get('content-type')).toBe('application/x-protobuf');
    expect(tile.headers.get('content-encoding')).toBe('gzip');
    expect(await csp(local.url, 'connect-src')).toBe("connect-src 'self'");
    expect(problems).toEqual([]);
    await page.close();
  });

  it('on a share link, a visitor sees the street map and no advice about server options', async () => {
    const share = (await (
      await fetch(`${styled.url}/api/shares`, {
        method: 'POST',
        headers: { authorization: `Bearer ${styled.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device: 'ferry', expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
      })
    ).json()) as { url: string };
    const page = await browser.newPage({ viewport: PHONE });
    const problems: string[] = [];
    await keepLocal(page, problems);
    await page.goto(share.url);
    await page.locator('#share-map.has-vector-basemap').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => waterShare(page, '#share-map'), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0.2);
    expect(await page.locator('#basemap-hint').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain('--');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('names exactly the map origins in the Content-Security-Policy, OpenFreeMap by default', async () => {
    expect(await csp(styled.url, 'connect-src')).toBe(`connect-src 'self' ${styles.url}`);
    expect(await csp(styled.url, 'img-src')).toBe(`img-src 'self' data: ${styles.url}`);
    const byDefault = await startServer({ port: 0, database: ':memory:', adminToken: 'admin-secret' });
    try {
      expect(await csp(byDefault.url, 'connect-src')).toBe("connect-src 'self' https://tiles.openfreemap.org");
      const config = (await (await fetch(`${byDefault.url}/dashboard-config.json`)).json()) as {
        basemap: { kind: string; style: string; attribution: string };
      };
      expect(config.basemap).toEqual({
        kind: 'style',
        style: 'https://tiles.openfreemap.org/styles/liberty',
        attribution: 'OpenFreeMap © OpenMapTiles Data from OpenStreetMap',
      });
    } finally {
      await byDefault.close();
    }
    const none = await startServer({ port: 0, database: ':memory:', adminToken: 'admin-secret', mapStyle: 'none' });
    try {
      expect(await csp(none.url, 'connect-src')).toBe("connect-src 'self'");
    } finally {
      await none.close();
    }
    await expect(
      startServer({
        port: 0,
        database: ':memory:',
        mapStyle: styles.styleUrl,
        tileUrl: `${styles.url}/{z}/{x}/{y}.png`,
      }),
    ).rejects.toThrow(/mapStyle.*give one basemap/);
    await expect(startServer({ port: 0, database: ':memory:', mapStyle: 'ftp://x/style.json' })).rejects.toThrow(
      /mapStyle/,
    );
  });
});
