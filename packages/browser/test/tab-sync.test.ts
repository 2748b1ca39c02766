// sync() from a tab that does not lead, when the leader is slow: its automatic upload still in
// flight as autoSync goes off, or its answer to the forwarded sync() arriving late.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { backends } from '../../server/test/helpers/backends.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/client.js';
import { launchChromium } from './support/chromium.js';
import { startGate, type Gate } from './support/gate.js';
import {
  enroll,
  openTracker,
  queueCount,
  recordFix,
  trackerContext,
  waitUntilStarted,
} from './support/tracker-page.js';

/** The SDK instance the tracker page exposes (packages/server/pages/track/track.ts). */
type Tracker = {
  waypostTracker: { bg: { setConfig(c: unknown): Promise<unknown>; sync(): Promise<{ uuid: string }[]> } };
};

const autoSyncOff = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Tracker).waypostTracker.bg.setConfig({ http: { autoSync: false } }));

const syncIn = (page: Page) =>
  page.evaluate(async () => (await (globalThis as unknown as Tracker).waypostTracker.bg.sync()).map((l) => l.uuid));

describe('sync() in a tab that does not lead, with a slow leader', () => {
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

  async function setup(): Promise<{ gate: Gate; context: BrowserContext; first: Page }> {
    const gate = await startGate(server.url);
    const context = await trackerContext(browser, gate.url);
    onTestFinished(async () => {
      await context.close();
      await gate.close();
    });
    const first = await openTracker(context, gate.url);
    await enroll(first, 'slow leader');
    await expect.poll(() => queueCount(first)).toBe(0);
    return { gate, context, first };
  }

  it('resolves with what was recorded after autoSync went off while the leader was still uploading', async () => {
    const { gate, context, first } = await setup();
    // The leader uploads the second tab's first fix; its answer is held until the records are made.
    const held = gate.hold();
    const second = await openTracker(context, gate.url);
    await waitUntilStarted(second);
    await held;
    for (const page of [first, second]) await autoSyncOff(page);
    const recorded = [...(await recordFix(context, [first, second])), ...(await recordFix(context, [first, second]))];
    gate.pass();
    const synced = await syncIn(second);
    expect(synced).toEqual(expect.arrayContaining(recorded));
    expect(gate.delivered.filter((u) => synced.includes(u))).toEqual(synced);
    expect(new Set(gate.delivered).size).toBe(gate.delivered.length);
    expect(await queueCount(second)).toBe(0);
  });
});
