// Issue 34 in the browser: the browser SDK (the built bundle, IndexedDB, fetch, CompressionStream
// 'deflate-raw') in Chromium sends a batch in the columnar coding once the server has said it takes
// it, and the body decodes to exactly the JSON text of the batch (the records as the page reads
// them back); a server that refuses the coding gets the same batch gzipped at once.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeColumnar } from '@waypost/sdk/internal';
import { launchChromium } from './support/chromium.js';

const BUNDLE = new URL('../dist/waypost-browser.js', import.meta.url);
const ADVERTISED = 'gzip, deflate, br, x-waypost-columnar, x-waypost-columnar-2';

interface Received {
  coding: string;
  json: string;
}

/** The page's origin: the bundle, an empty page, and /upload/<name> (or /refuse/<name>) decoding what arrives. */
const refusedCodings: string[] = [];
async function startSite() {
  const received = new Map<string, Received[]>();
  const bundle = readFileSync(BUNDLE, 'utf8');
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      const page = `<!doctype html><script type="module">import * as sdk from '/sdk.js'; globalThis.waypost = sdk;</script>`;
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    const [, path, name] = /^\/(upload|refuse)\/([\w-]+)$/.exec(req.url ?? '') ?? [];
    if (!name) return res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const coding = req.headers['content-encoding'] ?? 'none';
      const headers = { 'content-type': 'application/json', 'accept-encoding': ADVERTISED };
      // /refuse/<name>: says it takes the coding, then refuses it as Waypost's server refuses a broken body.
      if (path === 'refuse' && coding.startsWith('x-waypost-columnar')) {
        refusedCodings.push(coding);
        return res.writeHead(400, headers).end('{"error":"refused","code":"INVALID_COLUMNAR"}');
      }
      const raw = Buffer.concat(chunks);
      const json = coding.startsWith('x-waypost-columnar')
        ? decodeColumnar(inflateRawSync(raw), 1 << 22)
        : (coding === 'gzip' ? gunzipSync(raw) : raw).toString();
      received.set(name, [...(received.get(name) ?? []), { coding, json }]);
      res.writeHead(200, headers).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** In the page: one upload to learn the codings, then `count` records in one batch; their JSON texts. */
async function uploadBatch(page: Page, name: string, path: string, count: number): Promise<string[]> {
  return page.evaluate(
    async ({ name, path, count }) => {
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: typeof import('../src/index.js') })
        .waypost;
      const bg = await createBackgroundGeolocation({ database: name, provider: null });
      await bg.ready({ http: { url: `${location.origin}/${path}/${name}`, batchSync: true, autoSync: false } });
      await bg.start();
      await bg.recordLocation({ latitude: 45.5, longitude: -73.56, accuracy: 5 });
      await bg.sync();
      for (let i = 1; i <= count; i++) {
        const at = {
          latitude: Number((45.5 + i * 6.3e-5).toFixed(7)),
          longitude: Number((-73.56 + i * 9.1e-5).toFixed(7)),
        };
        await bg.recordLocation({ ...at, accuracy: 4 + (i % 5), speed: 1.4, heading: 45, altitude: 20 + (i % 3) });
      }
      const records = ((await bg.getLocations()) as unknown[]).map((r) => JSON.stringify(r));
      await bg.sync();
      const left = await bg.getCount();
      await bg.close();
      return left === 0 ? records : [];
    },
    { name, path, count },
  );
}

describe('the columnar coding from Chromium', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    site = await startSite();
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => 'waypost' in globalThis);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('a batch in the coding decodes to exactly the JSON text of its records', async () => {
    const records = await uploadBatch(page, 'columnar', 'upload', 50);
    expect(records).toHaveLength(50);
    const [first, batch, ...more] = site.received.get('columnar') ?? [];
    expect(first?.coding).toBe('none');
    expect(more).toEqual([]);
    expect(batch?.coding).toBe('x-waypost-columnar-2');
    expect(batch?.json).toBe(`{"location":[${records.join(',')}]}`);
  });

  it('a 400 to the coding: the same batch in version 1, then gzipped, at once; nothing lost', async () => {
    const records = await uploadBatch(page, 'refused', 'refuse', 20);
    expect(records).toHaveLength(20);
    const uploads = site.received.get('refused') ?? [];
    expect(uploads.map((u) => u.coding)).toEqual(['none', 'gzip']);
    expect(refusedCodings).toEqual(['x-waypost-columnar-2', 'x-waypost-columnar']);
    expect(uploads[1]!.json).toBe(`{"location":[${records.join(',')}]}`);
  });
});
