import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { STORE_CONTRACT } from '../../sdk/test/contract/store-contract-cases.js';
import { ARCHIVE_CONTRACT } from '../../sdk/test/contract/archive-contract-cases.js';
import { launchChromium } from './support/chromium.js';
import { bundleHarness, startHarnessServer, type HarnessServer } from './support/harness-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the harness object lives in the page
type Harness = any;
const harness = (page: Page) => page.evaluateHandle(() => (globalThis as unknown as { harness: Harness }).harness);

describe('@waypost/browser in Chromium', () => {
  let server: HarnessServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    server = await startHarnessServer(await bundleHarness());
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => 'harness' in globalThis);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the page runs every case of the shared contract', async () => {
    const names = await (await harness(page)).evaluate((h: Harness) => h.cases);
    expect(names).toEqual(STORE_CONTRACT.map((c) => c.name));
  });

  // The same cases the Node stores pass (packages/node/test/store-contract.test.ts), on IndexedDB.
  it.each(STORE_CONTRACT.map((c) => c.name))('store contract on IndexedDB: %s', async (name) => {
    const failure = await (await harness(page)).evaluate((h: Harness, n: string) => h.runCase(n), name);
    expect(failure).toBeNull();
  });

  // The receipt archive's contract (issue 46), the cases the Node stores pass, on IndexedDB.
  it.each(ARCHIVE_CONTRACT.map((c) => c.name))('receipt archive on IndexedDB: %s', async (name) => {
    const failure = await (await harness(page)).evaluate((h: Harness, n: string) => h.runCase(n), name);
    expect(failure).toBeNull();
  });

  it('a database written by a newer Waypost is refused with code STORE, not misread', async () => {
    const result = await (await harness(page)).evaluate((h: Harness) => h.openNewerDatabase());
    expect(result).toEqual({ code: 'STORE', message: expect.stringMatching(/written by a newer Waypost/) });
  });

  it('fetch transport: timeout aborts with TIMEOUT, redirects are not followed, bodies are bounded', async () => {
    const h = await harness(page);
    expect(await h.evaluate((x: Harness, url: string) => x.send(url, 300), `${server.url}/hang`)).toEqual({
      code: 'TIMEOUT',
      message: expect.stringMatching(/within 300 ms/),
    });
    expect(await h.evaluate((x: Harness, url: string) => x.send(url, 5000), `${server.url}/redirect`)).toEqual({
      status: 302,
      length: 0,
    });
    expect(await h.evaluate((x: Harness, url: string) => x.send(url, 5000), `${server.url}/big`)).toEqual({
      status: 200,
      length: 1024 * 1024,
    });
    expect(await h.evaluate((x: Harness) => x.send('http://127.0.0.1:9/nothing', 5000))).toMatchObject({
      code: 'NETWORK',
    });
  });

  it('network monitor follows the online and offline events', async () => {
    const h = await harness(page);
    expect(await h.evaluate((x: Harness) => x.network())).toEqual({ current: 'wifi', seen: [] });
    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    expect(await h.evaluate((x: Harness) => x.network())).toEqual({ current: 'none', seen: ['none'] });
    await context.setOffline(false);
    await page.waitForFunction(() => navigator.onLine);
    expect(await h.evaluate((x: Harness) => x.network())).toEqual({ current: 'wifi', seen: ['none', 'wifi'] });
  });

  it('geolocation provider: a fix with unknown speed as -1; a denied permission as PERMISSION_DENIED', async () => {
    const h = await harness(page);
    expect(await h.evaluate((x: Harness) => x.watchOnce())).toMatchObject({ code: 'PERMISSION_DENIED' });
    await context.grantPermissions(['geolocation'], { origin: server.url });
    await context.setGeolocation({ latitude: 52.5, longitude: 13.4, accuracy: 10 });
    expect(await h.evaluate((x: Harness) => x.watchOnce())).toEqual({ latitude: 52.5, speed: -1 });
    // The anchor's getCurrentPosition() is served by the browser's Geolocation API by default.
    expect(await h.evaluate((x: Harness) => x.currentPosition())).toEqual({ latitude: 52.5, accuracy: 10 });
  });

  it('the service worker drain leaves the queue to a tab that leads, and drains it once none is open', async () => {
    const result = await (
      await harness(page)
    ).evaluate((h: Harness, url: string) => h.drainBesideATab(url), `${server.url}/sink`);
    expect(result).toEqual({
      whileOpen: { ran: false, delivered: 0, remaining: -1 },
      afterClose: { ran: true, delivered: 2, remaining: 0 },
    });
  });

  it('the service worker drain waits for a closing tab to let go of the queue, then drains it', async () => {
    const result = await (
      await harness(page)
    ).evaluate((h: Harness, url: string) => h.drainAsTheTabCloses(url), `${server.url}/sink`);
    expect(result).toEqual({ ran: true, delivered: 2, remaining: 0 });
  });

  it('a wake-up fired before the worker sees the network waits for it; still offline, it fails for the browser to retry', async () => {
    const h = await harness(page);
    onTestFinished(() => context.setOffline(false));
    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    const sink = `${server.url}/sink`;
    expect(await h.evaluate((x: Harness, url: string) => x.startDrainOffline(url), sink)).toBe(false);
    await context.setOffline(false);
    expect(await h.evaluate((x: Harness) => x.finishDrain())).toEqual({ ran: true, delivered: 2, remaining: 0 });

    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    await h.evaluate((x: Harness, url: string) => x.startDrainOffline(url, 200), sink);
    expect(await h.evaluate((x: Harness) => x.finishDrain())).toBe(
      '2 records still queued after a failed upload or offline; the browser will retry',
    );
  });

  it("a service worker wake-up keeps the spec's rules: nothing with autoSync false, nothing during a Retry-After", async () => {
    const result = await (
      await harness(page)
    ).evaluate(
      (h: Harness, urls: string[]) => h.drainKeepsTheRules(urls[0], urls[1]),
      [`${server.url}/sink`, `${server.url}/busy`],
    );
    expect(result).toEqual({
      autoSyncOff: { ran: true, delivered: 0, remaining: 1 },
      retryAfter: expect.any(String),
      duringRetryAfter: { ran: true, delivered: 0, remaining: 1 },
    });
    // The page's one request; the worker's drain sent none.
    expect(await (await fetch(`${server.url}/busy-count`)).text()).toBe('1');
  });
});
