// The device health report from the browser SDK (issue 31), in Chromium: a page on one origin
// uploads to Waypost's server on another (corsOrigins), and the report rides on its uploads through
// the browser's CORS preflight, so the server names the device from it as it does a Node SDK's. A
// third-party server that allows no custom header gets none: the SDK sends the report only to a
// server that said it reads it, and that server's uploads never fail for it.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../server/test/helpers/backends.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/client.js';
import { launchChromium } from './support/chromium.js';

const BUNDLE = new URL('../dist/waypost-browser.js', import.meta.url);

/** The page's origin (the built bundle), and a third-party upload server whose CORS allows only content-type. */
async function startSites() {
  const bundle = readFileSync(BUNDLE, 'utf8');
  const thirdParty: { headers: http.IncomingHttpHeaders; method: string }[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      const page = `<!doctype html><script type="module">import * as sdk from '/sdk.js'; globalThis.waypost = sdk;</script>`;
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    return res.writeHead(404).end();
  });
  const other = http.createServer((req, res) => {
    thirdParty.push({ headers: req.headers, method: req.method ?? '' });
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type',
    };
    req.resume();
    req.on('end', () => res.writeHead(req.method === 'OPTIONS' ? 204 : 200, cors).end());
  });
  for (const s of [server, other]) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    url: url(server),
    thirdPartyUrl: url(other),
    thirdParty,
    close: async () => {
      for (const s of [server, other]) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
    },
  };
}

type Sdk = typeof import('../src/index.js');

/** In the page: a tracker that records and syncs twice to `url` (the first sync learns, the second reports). */
function twoUploads(page: Page, url: string, device: string) {
  return page.evaluate(
    async ({ url, device }) => {
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: Sdk }).waypost;
      const bg = await createBackgroundGeolocation({ database: `health-${device}`, provider: null });
      const statuses: number[] = [];
      bg.onHttp((event: { status: number }) => statuses.push(event.status));
      await bg.ready({ http: { url, params: { device_id: device }, autoSync: false } });
      await bg.start();
      await bg.changePace(true);
      for (let i = 0; i < 2; i++) {
        await bg.recordLocation({ latitude: 45.5 + i / 1e4, longitude: -73.56, accuracy: 5 });
        await bg.sync();
      }
      const left = await bg.getCount();
      await bg.close();
      return { statuses, left };
    },
    { url, device },
  );
}

describe('the health report from the browser SDK, in Chromium', () => {
  let sites: Awaited<ReturnType<typeof startSites>>;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    sites = await startSites();
    server = await startTestServer(backends[0]!, { corsOrigins: [sites.url] });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(sites.url);
    await page.waitForFunction(() => 'waypost' in globalThis);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sites?.close();
  });

  it("crosses origins to Waypost's server, which names the device from it", async () => {
    expect(await twoUploads(page, `${server.url}/locations`, 'browser-tab')).toEqual({ statuses: [200, 200], left: 0 });
    const health = (await server.admin('/api/devices/browser-tab/health')).body;
    // autoSync is off in the page: what holds its records back is named from its own report.
    expect(health).toMatchObject({ state: 'waiting', cause: 'autosync-off', inferred: false });
    expect(health.report).toMatchObject({
      version: '0.1.0',
      queued: 1,
      tracking: true,
      motion: { moving: true },
      hold: { kind: 'autosync-off' },
    });
  });

  it('a third-party server that allows no custom header gets none, and every upload succeeds', async () => {
    expect(await twoUploads(page, `${sites.thirdPartyUrl}/upload`, 'browser-elsewhere')).toEqual({
      statuses: [200, 200],
      left: 0,
    });
    const posts = sites.thirdParty.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts.map((r) => r.headers['waypost-health'] ?? null)).toEqual([null, null]);
  });
});
