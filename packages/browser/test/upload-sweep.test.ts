// The browser SDK as a page uses it (the built bundle, IndexedDB, fetch, its defaults but the
// database name), in Chromium, over a grid of `http` configurations: batchSync on and off,
// maxBatchSize -1 (the default), 1 and 7, automatic uploads and sync(). Every record reaches the
// server once, in order, and the queue ends empty. The default batch configuration
// (`batchSync: true`, nothing else) is the case issue 17 found never uploading.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';

const BUNDLE = new URL('../dist/waypost-browser.js', import.meta.url);
const RECORDS = 9;
/** The fourth record's latitude (see runInPage), refused by /refuse-one/. */
const REFUSED_LATITUDE = 45.5 + 3 * 1e-6;

interface Upload {
  method: string;
  uuids: string[];
  gzipped: boolean;
  contentType: string | undefined;
}

/** The page's origin: the bundle, an empty page, and /upload/<name> recording what arrives. */
async function startSite() {
  const uploads = new Map<string, Upload[]>();
  const flaky = new Set<string>();
  const refusedGzip = new Map<string, number>();
  const bundle = readFileSync(BUNDLE, 'utf8');
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      const page = `<!doctype html><script type="module">import * as sdk from '/sdk.js'; globalThis.waypost = sdk;</script>`;
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    const [, path, name] = /^\/(upload|flaky|plain-only|refuse-one)\/([\w-]+)$/.exec(req.url ?? '') ?? [];
    if (!name) return res.writeHead(404).end();
    // /flaky/<name>: the first request fails (a server restarting), the next ones are recorded.
    if (path === 'flaky' && !flaky.has(name)) {
      flaky.add(name);
      req.resume();
      return res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    }
    // /plain-only/<name>: says it takes gzip, then refuses gzipped bodies (a proxy that lies).
    if (path === 'plain-only' && req.headers['content-encoding'] === 'gzip') {
      refusedGzip.set(name, (refusedGzip.get(name) ?? 0) + 1);
      req.resume();
      return res.writeHead(415, { 'content-type': 'application/json', 'accept-encoding': 'gzip' }).end('{}');
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Like Waypost's server: it takes gzip, and says so on every answer (RFC 7694).
      const gzipped = req.headers['content-encoding'] === 'gzip';
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((gzipped ? gunzipSync(raw) : raw).toString()) as {
        location: { uuid: string } | { uuid: string }[];
      };
      const records = Array.isArray(body.location) ? body.location : [body.location];
      // /refuse-one/<name>: a foreign server that will not take the fourth record (422), whoever it is with.
      if (
        path === 'refuse-one' &&
        records.some((r) => (r as { coords?: { latitude: number } }).coords?.latitude === REFUSED_LATITUDE)
      ) {
        return res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"invalid record"}');
      }
      const upload = {
        method: req.method!,
        uuids: records.map((r) => r.uuid),
        gzipped,
        contentType: req.headers['content-type'],
      };
      uploads.set(name, [...(uploads.get(name) ?? []), upload]);
      res.writeHead(200, { 'content-type': 'application/json', 'accept-encoding': 'gzip' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    uploads,
    refusedGzip,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type HttpCase = { batchSync?: boolean; maxBatchSize?: number; autoSync?: boolean; compress?: 'auto' | 'gzip' | 'none' };

/** In the page: record RECORDS locations with this http configuration, let them upload, report. */
async function runInPage(page: Page, name: string, httpCase: HttpCase, path = 'upload') {
  return page.evaluate(
    async ({ name, httpCase, records, path }) => {
      // The bundle as the page imported it (a module script).
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: typeof import('../src/index.js') })
        .waypost;
      const bg = await createBackgroundGeolocation({ database: name, provider: null });
      const recorded: string[] = [];
      const failures: string[] = [];
      bg.onHttp((e: { success: boolean; status: number; error?: string }) => {
        if (!e.success) failures.push(`${e.status} ${e.error ?? ''}`);
      });
      // Resolves once the queue is empty, woken by each upload's onHttp event.
      const drained = async () => {
        for (;;) {
          const next = new Promise<void>((resolve) => {
            const s = bg.onHttp(() => (s.remove(), resolve()));
          });
          if ((await bg.getCount()) === 0) return;
          await next;
        }
      };
      await bg.ready({ http: { url: `${location.origin}/${path}/${name}`, ...httpCase } });
      await bg.start();
      for (let i = 0; i < records; i++) {
        recorded.push((await bg.recordLocation({ latitude: 45.5 + i * 1e-6, longitude: -73.56, accuracy: 5 })).uuid);
      }
      if (httpCase.autoSync === false) {
        while ((await bg.getCount()) > 0) await bg.sync();
      } else {
        await drained();
      }
      const left = await bg.getCount();
      await bg.close();
      return { recorded, left, failures };
    },
    { name, httpCase, records: RECORDS, path },
  );
}

describe('uploads from Chromium over a grid of http configurations (IndexedDB)', () => {
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

  const cases: HttpCase[] = [];
  for (const autoSync of [true, false]) {
    cases.push({ batchSync: false, autoSync });
    for (const maxBatchSize of [undefined, 1, 7]) {
      cases.push({ batchSync: true, ...(maxBatchSize === undefined ? {} : { maxBatchSize }), autoSync });
    }
  }

  it("compression in the browser (CompressionStream): auto after the server's Accept-Encoding, gzip always, none never", async () => {
    const gzippedBy = async (name: string, httpCase: HttpCase) => {
      const { recorded, left, failures } = await runInPage(page, name, httpCase);
      const uploads = site.uploads.get(name) ?? [];
      expect([failures, left]).toEqual([[], 0]);
      expect(uploads.flatMap((u) => u.uuids)).toEqual(recorded);
      // Compressed or not, the content is JSON (issue 29: no test checked a gzipped body's type).
      expect(uploads.map((u) => u.contentType)).toEqual(uploads.map(() => 'application/json'));
      return uploads.map((u) => u.gzipped);
    };
    const auto = await gzippedBy('compress-auto', { batchSync: false });
    expect(auto[0]).toBe(false);
    expect(auto.slice(1).every(Boolean)).toBe(true);
    expect(await gzippedBy('compress-gzip', { batchSync: false, compress: 'gzip' })).toEqual(Array(RECORDS).fill(true));
    expect(await gzippedBy('compress-none', { batchSync: false, compress: 'none' })).toEqual(
      Array(RECORDS).fill(false),
    );
  });

  it('one record the server refuses never blocks the others (issue 19): the batch is split, the rest delivered in order', async () => {
    const name = 'refuse-one';
    const result = await page.evaluate(
      async ({ name, records }) => {
        const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: typeof import('../src/index.js') })
          .waypost;
        const bg = await createBackgroundGeolocation({ database: name, provider: null });
        const statuses: number[] = [];
        bg.onHttp((e: { status: number }) => statuses.push(e.status));
        await bg.ready({ http: { url: `${location.origin}/refuse-one/${name}`, batchSync: true, autoSync: false } });
        await bg.start();
        const recorded: string[] = [];
        for (let i = 0; i < records; i++) {
          const at = { latitude: 45.5 + i * 1e-6, longitude: -73.56, accuracy: 5 };
          recorded.push((await bg.recordLocation(at)).uuid);
        }
        await bg.sync();
        const left = (await bg.getLocations()) as { uuid: string }[];
        await bg.close();
        return { recorded, statuses, left: left.map((r) => r.uuid) };
      },
      { name, records: RECORDS },
    );
    const refused = result.recorded[3]!;
    expect((site.uploads.get(name) ?? []).flatMap((u) => u.uuids)).toEqual(
      result.recorded.filter((u) => u !== refused),
    );
    expect(result.left).toEqual([refused]);
    expect(result.statuses).toContain(422);
    expect(result.statuses.at(-1)).toBe(200);
  });

  it('a 415 to a gzipped body: sent again plain at once, and plain from then on', async () => {
    const name = 'refused-gzip';
    const { recorded, left, failures } = await runInPage(
      page,
      name,
      { batchSync: false, compress: 'gzip' },
      'plain-only',
    );
    expect([failures, left]).toEqual([[], 0]);
    expect((site.uploads.get(name) ?? []).flatMap((u) => u.uuids)).toEqual(recorded);
    expect(site.refusedGzip.get(name)).toBe(1);
  });

  it.each(cases.map((c, i) => [JSON.stringify(c), c, i] as const))('%s', async (_label, httpCase, i) => {
    const name = `sweep-${i}`;
    const { recorded, left, failures } = await runInPage(page, name, httpCase);
    const uploads = site.uploads.get(name) ?? [];
    expect(failures).toEqual([]);
    expect(uploads.flatMap((u) => u.uuids)).toEqual(recorded);
    expect(left).toBe(0);
    if (httpCase.batchSync === false) expect(uploads.every((u) => u.uuids.length === 1)).toBe(true);
    if (httpCase.maxBatchSize) {
      expect(Math.max(...uploads.map((u) => u.uuids.length))).toBeLessThanOrEqual(httpCase.maxBatchSize);
    }
  });

  it('bad options are refused with INVALID_OPTION naming them (issue 17 item 12)', async () => {
    const refusals = await page.evaluate(async () => {
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: typeof import('../src/index.js') })
        .waypost;
      const attempts: Record<string, unknown>[] = [
        { durability: 'bogus' },
        { transport: {} },
        { network: {} },
        { provider: { start() {} } },
        { leadership: 'yes' },
      ];
      return Promise.all(
        attempts.map((options) =>
          createBackgroundGeolocation({ database: 'options', ...options } as never).then(
            () => null,
            (e: { code?: string; key?: string; name?: string }) => ({ code: e.code, key: e.key, name: e.name }),
          ),
        ),
      );
    });
    expect(refusals).toEqual(
      ['durability', 'transport', 'network', 'provider', 'leadership'].map((key) => ({
        code: 'INVALID_OPTION',
        key,
        name: 'WaypostError',
      })),
    );
  });

  it('the page coming back to the foreground retries a failed upload (spec 7.3 "the app resumes")', async () => {
    const result = await page.evaluate(async () => {
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: typeof import('../src/index.js') })
        .waypost;
      const bg = await createBackgroundGeolocation({ database: 'resume', provider: null });
      const statuses: number[] = [];
      const next = () =>
        new Promise<void>((resolve) => {
          const s = bg.onHttp((e: { status: number }) => (statuses.push(e.status), s.remove(), resolve()));
        });
      await bg.ready({ http: { url: `${location.origin}/flaky/resume` } });
      await bg.start();
      await bg.idle();
      const failed = next();
      await bg.recordLocation({ latitude: 45.5, longitude: -73.56, accuracy: 5 });
      await failed; // 503: plain retries now wait for the next trigger (the periodic one is 15 min away)
      const retried = next();
      // What the browser fires when the user comes back to the page.
      document.dispatchEvent(new Event('visibilitychange'));
      await retried;
      const left = await bg.getCount();
      await bg.close();
      return { statuses, left };
    });
    expect(result).toEqual({ statuses: [503, 200], left: 0 });
    expect(site.uploads.get('resume')?.flatMap((u) => u.uuids)).toHaveLength(1);
  });
});
