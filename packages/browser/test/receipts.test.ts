// Delivery receipts from the browser SDK (issue 46), in Chromium: a page on one origin uploads to
// Waypost's server on another (corsOrigins); the server's receipts cross CORS, the SDK verifies
// them with WebCrypto's Ed25519 and keeps the receipted records in its IndexedDB archive; and
// after records are deleted behind the server's back, the page's next upload gets them back.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../server/test/helpers/backends.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/client.js';
import { launchChromium } from './support/chromium.js';

const BUNDLE = new URL('../dist/waypost-browser.js', import.meta.url);

async function startPageSite() {
  const bundle = readFileSync(BUNDLE, 'utf8');
  const site = http.createServer((req, res) => {
    if (req.url === '/') {
      const page = `<!doctype html><script type="module">import * as sdk from '/sdk.js'; globalThis.waypost = sdk;</script>`;
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    return res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: async () => {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}

type Sdk = typeof import('../src/index.js');

/** In the page: syncs of `counts[i]` new records each to `url`, then what the SDK says it kept. */
function uploads(page: Page, url: string, device: string, counts: number[]) {
  return page.evaluate(
    async ({ url, device, counts }) => {
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: Sdk }).waypost;
      const bg = await createBackgroundGeolocation({ database: `receipts-${device}`, provider: null });
      await bg.ready({ http: { url, params: { device_id: device }, autoSync: false, batchSync: true } });
      for (const n of counts) {
        for (let i = 0; i < n; i++) await bg.store.insertLocation({ latitude: 45.5 + i / 1e4, longitude: -73.56 });
        await bg.sync();
      }
      const days = await bg.store.getReceipts();
      const log = await bg.logger.getLog();
      const left = await bg.getCount();
      await bg.close();
      return { ranges: days.map((d) => d.ranges), left, resent: /RESEND \d+/.exec(log)?.[0] ?? null };
    },
    { url, device, counts },
  );
}

describe('delivery receipts from the browser SDK, in Chromium', () => {
  let site: Awaited<ReturnType<typeof startPageSite>>;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let clock = Date.UTC(2026, 10, 27, 9);
  beforeAll(async () => {
    site = await startPageSite();
    server = await startTestServer(backends[0]!, { corsOrigins: [site.url], now: () => clock });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => 'waypost' in globalThis);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.close();
  });

  it('keeps receipted records in IndexedDB, and re-sends those the server lost', async () => {
    const url = `${server.url}/locations`;
    expect(await uploads(page, url, 'tab', [1, 3])).toEqual({ ranges: [[[2, 4]]], left: 0, resent: null });
    const db = new Database(server.storage.database!);
    db.exec(`DELETE FROM locations WHERE device_id = 'tab' AND sequence = 3`);
    db.close();
    clock += 10 * 60 * 1000; // the server re-checks a device's whole claim after 10 minutes
    // A new page load: its first upload learns the offer again, the second says how far its receipts go.
    expect(await uploads(page, url, 'tab', [1, 1])).toMatchObject({ left: 0, resent: 'RESEND 1' });
    expect((await server.admin('/api/devices/tab/ledger')).body).toMatchObject({
      received: 6,
      recovered: 1,
      missing: 0,
    });
  });
});
