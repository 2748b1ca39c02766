// Issue 28 item 8 and CORS: a wrong method is 405 with Allow, OPTIONS without Origin is 204 with
// Allow, a trailing slash reaches the route, and a page on an allowed origin reads Retry-After.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

describe('methods, OPTIONS and trailing slashes', () => {
  let server: TestServer;
  let cors: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    cors = await startTestServer(backends[0]!, { corsOrigins: ['https://app.example'] });
  });
  afterAll(async () => {
    await server.stop();
    await cors.stop();
  });

  it('answers a wrong method on a route with 405 and Allow, an unknown path with 404', async () => {
    const get = await fetch(`${server.url}/auth/refresh`);
    expect([get.status, get.headers.get('allow'), ((await get.json()) as { code: string }).code]).toEqual([
      405,
      'POST, OPTIONS',
      'METHOD_NOT_ALLOWED',
    ]);
    const remove = await fetch(`${server.url}/locations`, { method: 'DELETE' });
    expect([remove.status, remove.headers.get('allow')]).toEqual([405, 'POST, PUT, PATCH, OPTIONS']);
    const shares = await fetch(`${server.url}/api/shares/some-id`, { method: 'POST' });
    expect([shares.status, shares.headers.get('allow')]).toEqual([405, 'DELETE, OPTIONS']);
    const none = await fetch(`${server.url}/no/such/route`);
    expect([none.status, ((await none.json()) as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers OPTIONS without Origin with 204 and Allow, with or without CORS origins', async () => {
    for (const url of [server.url, cors.url]) {
      const options = await fetch(`${url}/locations`, { method: 'OPTIONS' });
      expect([options.status, options.headers.get('allow')], url).toEqual([204, 'POST, PUT, PATCH, OPTIONS']);
      const api = await fetch(`${url}/api/devices/x`, { method: 'OPTIONS' });
      expect(api.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
      expect((await fetch(`${url}/no/such/route`, { method: 'OPTIONS' })).status).toBe(404);
    }
    // A real preflight is still the CORS plugin's.
    const preflight = await fetch(`${cors.url}/locations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([
      204,
      'https://app.example',
    ]);
  });

  it('takes a DELETE without a body whatever Content-Type it names (issue 41)', async () => {
    const fence = { identifier: 'depot', latitude: 48.1, longitude: 11.5, radius: 100 };
    for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml']) {
      expect((await server.admin('/api/geofences', { method: 'POST', body: fence })).status).toBe(201);
      const remove = await fetch(`${server.url}/api/geofences/depot`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': type },
      });
      expect([type, remove.status, await remove.json()]).toEqual([type, 200, { deleted: 'depot' }]);
    }
    // A DELETE with a body is still checked as any body is.
    const withBody = await fetch(`${server.url}/api/geofences/depot`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/xml' },
      body: '<x/>',
    });
    expect(withBody.status).toBe(415);
  });

  it('takes /osmand/ and /api/geofences/ like the routes without the slash', async () => {
    const osmand = await fetch(`${server.url}/osmand/?id=slash&lat=48.1&lon=11.5&timestamp=1714557600`, {
      method: 'POST',
    });
    expect(osmand.status).toBe(200);
    expect((await server.admin('/api/devices/slash')).status).toBe(200);
    const geofences = await server.admin('/api/geofences/');
    expect([geofences.status, geofences.body]).toEqual([200, []]);
    // A path that is a page of its own with the slash stays one.
    expect((await fetch(`${server.url}/track`, { redirect: 'manual' })).status).toBe(301);
  });
});

describe('a page on an allowed origin', () => {
  let page: Server;
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    page = createServer((_request, response) => response.end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    // A frozen clock: the device's bucket never refills during the test, so the 429 comes for sure.
    server = await startTestServer(backends[0]!, { corsOrigins: [origin], rateLimit: 0.1, now: () => 1.7e12 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    await new Promise((resolve) => page.close(resolve));
  });

  it('reads Retry-After on a 429 (the browser SDK honours it cross-origin)', async () => {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
    const seen = await tab.evaluate(
      async ({ url, body }) => {
        for (let i = 0; i < 20; i++) {
          const response = await fetch(`${url}/locations`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          if (response.status === 429) return { status: 429, retryAfter: response.headers.get('retry-after') };
        }
        return { status: 0, retryAfter: null };
      },
      { url: server.url, body: JSON.stringify({ location: [record('r1')], device_id: 'paced' }) },
    );
    expect(seen.status).toBe(429);
    expect(Number(seen.retryAfter)).toBeGreaterThan(0);
  });
});
