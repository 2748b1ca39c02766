// Sequence numbers of the IndexedDB queue (issue 43), in Chromium: a numbered insert adds only its
// row and trusts the number after its own last one while the row's id says no other insert came
// between (src/store/numbering.ts). These tests run real tabs of one origin on one queue.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';

const BUNDLE = new URL('../dist/waypost-browser.js', import.meta.url);
type Sdk = typeof import('../src/index.js');

let site: http.Server;
let url: string;
let browser: Browser;

beforeAll(async () => {
  const bundle = readFileSync(BUNDLE, 'utf8');
  site = http.createServer((req, res) => {
    if (req.url === '/') {
      const page = `<!doctype html><script type="module">import * as sdk from '/sdk.js'; globalThis.waypost = sdk;</script>`;
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    return res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

async function tabs(context: BrowserContext, count: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => 'waypost' in globalThis);
    pages.push(page);
  }
  return pages;
}

/**
 * In a tab: `records` recordLocation() calls on `database`, answering the numbers the locations
 * carry; every `clearEvery` records (0: never) it also deletes the whole queue, as uploads do.
 */
function record(page: Page, database: string, records: number, clearEvery: number) {
  return page.evaluate(
    async ({ database, records, clearEvery }) => {
      const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: Sdk }).waypost;
      const bg = await createBackgroundGeolocation({ database, provider: null });
      await bg.ready({ logger: { logLevel: 'OFF' } });
      await bg.start();
      const numbers: number[] = [];
      for (let i = 0; i < records; i++) {
        const location = await bg.recordLocation({ latitude: 45.5 + i / 1e5, longitude: -73.6 });
        numbers.push(location.sequence!);
        if (clearEvery > 0 && i % clearEvery === clearEvery - 1) await bg.destroyLocations();
      }
      await bg.close();
      return numbers;
    },
    { database, records, clearEvery },
  );
}

describe('sequence numbers of the IndexedDB queue, in Chromium', () => {
  it('two tabs recording into one queue, one of them emptying it meanwhile: every number once, none missing', async () => {
    const context = await browser.newContext();
    try {
      const [first, second] = await tabs(context, 2);
      const database = `numbering-${Date.now()}`;
      const [a, b] = await Promise.all([record(first!, database, 150, 20), record(second!, database, 150, 0)]);
      // Each tab's own numbers go up; together they are 1..300, each once.
      expect(a).toEqual([...a].sort((x, y) => x - y));
      expect(b).toEqual([...b].sort((x, y) => x - y));
      const all = [...a, ...b].sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
      // The queue holds the numbers it renders; a later instance goes on from 301.
      const after = await first!.evaluate(async (database) => {
        const { createBackgroundGeolocation } = (globalThis as unknown as { waypost: Sdk }).waypost;
        const bg = await createBackgroundGeolocation({ database, provider: null });
        await bg.ready({ logger: { logLevel: 'OFF' } });
        await bg.start();
        const queued = (await bg.getLocations()).map((l) => (l as { sequence: number }).sequence);
        const next = (await bg.recordLocation({ latitude: 1, longitude: 2 })).sequence;
        await bg.close();
        return { queued, next };
      }, database);
      expect(after.next).toBe(301);
      expect(after.queued.every((n) => all.includes(n))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('every way records leave the queue keeps their numbers counted: the next instance goes on after them', async () => {
    const context = await browser.newContext();
    try {
      const [page] = await tabs(context, 1);
      const next = await page!.evaluate(async () => {
        const { openIndexedDbStore } = (globalThis as unknown as { waypost: Sdk }).waypost;
        type Store = Awaited<ReturnType<typeof openIndexedDbStore>>;
        const ways: Record<string, (store: Store) => Promise<unknown>> = {
          remove: async (s) => s.locations.remove((await s.locations.lockNext(10, 'ASC')).map((r) => r.id)),
          removeAll: (s) => s.locations.removeAll(),
          removeByUuid: async (s) => {
            for (const uuid of ['r1', 'r2', 'r3']) await s.locations.removeByUuid(uuid);
          },
          prune: (s) => s.locations.prune({ maxRecords: 0 }),
          archive: async (s) => {
            const rows = await s.locations.lockNext(10, 'ASC');
            const records = rows.map((r) => ({ id: r.id, sequence: JSON.parse(r.json).sequence as number }));
            const entry = { url: 'https://example.test', epoch: null, ranges: [[1, 3]] as [number, number][] };
            await s.archive!.keep(records, { ...entry, receipt: 'r', at: 1 });
          },
        };
        const found: Record<string, number> = {};
        for (const [way, empty] of Object.entries(ways)) {
          const name = `leave-${way}-${Date.now()}`;
          const numbered = (store: Store, uuid: string) =>
            store.locations.insertNumbered((sequence) => ({ uuid, createdAt: 1, json: JSON.stringify({ sequence }) }));
          const store = await openIndexedDbStore(name);
          for (const uuid of ['r1', 'r2', 'r3']) await numbered(store, uuid);
          await empty(store);
          if ((await store.locations.count()) !== 0) throw new Error(`${way} left records`);
          await store.close();
          const reopened = await openIndexedDbStore(name);
          found[way] = await numbered(reopened, 'r4');
          await reopened.close();
        }
        return found;
      });
      expect(next).toEqual({ remove: 4, removeAll: 4, removeByUuid: 4, prune: 4, archive: 4 });
    } finally {
      await context.close();
    }
  });

  it('a queue written by the previous schema (counter in kv only) goes on from its counter', async () => {
    const context = await browser.newContext();
    try {
      const [page] = await tabs(context, 1);
      const result = await page!.evaluate(async () => {
        const { openIndexedDbStore } = (globalThis as unknown as { waypost: Sdk }).waypost;
        const name = `v2-${Date.now()}`;
        // Schema v2 as that SDK made it, holding number 41 in kv and delivered rows gone.
        await new Promise<void>((resolve, reject) => {
          const request = indexedDB.open(name, 2);
          request.onupgradeneeded = () => {
            const db = request.result;
            const locations = db.createObjectStore('locations', { keyPath: 'id', autoIncrement: true });
            locations.createIndex('uuid', 'uuid');
            locations.createIndex('createdAt', 'createdAt');
            db.createObjectStore('locks');
            const log = db.createObjectStore('log', { keyPath: 'id', autoIncrement: true });
            log.createIndex('timestamp', 'timestamp');
            const kv = db.createObjectStore('kv');
            db.createObjectStore('geofences', { keyPath: 'identifier' });
            const archive = db.createObjectStore('archive', { keyPath: 'id', autoIncrement: true });
            archive.createIndex('stream', 'stream');
            archive.createIndex('archivedAt', 'archivedAt');
            db.createObjectStore('receipts', { keyPath: 'id', autoIncrement: true }).createIndex('at', 'at');
            kv.put('41', 'records.sequence');
            kv.put('0123456789abcdef01234567', 'records.epoch');
            locations.add({ uuid: 'u40', createdAt: 1, json: '{}', sequence: 40 });
            // One log line as v2 wrote it.
            log.add({ timestamp: 5, level: 3, tag: 'T', message: 'old line' });
          };
          request.onsuccess = () => (request.result.close(), resolve());
          request.onerror = () => reject(request.error);
        });
        const store = await openIndexedDbStore(name);
        let epoch: string | null = null;
        const next = await store.locations.insertNumbered((sequence, e) => {
          epoch = e;
          return { uuid: 'u42', createdAt: 2, json: JSON.stringify({ sequence }) };
        });
        await store.log.append([{ timestamp: 6, level: 3, tag: 'T', message: 'new line' }]);
        const log = (await store.log.read()).map((e) => e.message);
        await store.close();
        return { next, epoch, log };
      });
      expect(result).toEqual({ next: 42, epoch: '0123456789abcdef01234567', log: ['old line', 'new line'] });
    } finally {
      await context.close();
    }
  });

  it('the log keeps the newer lines of a batch that prune() cuts through, in order, both ways', async () => {
    const context = await browser.newContext();
    try {
      const [page] = await tabs(context, 1);
      const result = await page!.evaluate(async () => {
        const { openIndexedDbStore } = (globalThis as unknown as { waypost: Sdk }).waypost;
        const store = await openIndexedDbStore(`log-${Date.now()}`);
        const line = (t: number) => ({ timestamp: t, level: 3, tag: 'T', message: `m${t}` });
        await store.log.append([100, 200, 300].map(line));
        await store.log.append([400, 500].map(line));
        const removed = await store.log.prune(250);
        const messages = async (q?: Parameters<typeof store.log.read>[0]) =>
          (await store.log.read(q)).map((e) => e.message);
        const out = {
          removed,
          all: await messages(),
          desc: await messages({ order: 'DESC', limit: 2 }),
          tail: await messages({ limit: 2, offset: 1 }),
          pruneAgain: await store.log.prune(450),
          left: await messages(),
        };
        await store.close();
        return out;
      });
      expect(result).toEqual({
        removed: 2,
        all: ['m300', 'm400', 'm500'],
        desc: ['m500', 'm400'],
        tail: ['m300', 'm400'],
        pruneAgain: 2,
        left: ['m500'],
      });
    } finally {
      await context.close();
    }
  });
});
