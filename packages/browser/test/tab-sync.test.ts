// sync() from a tab that does not lead, when the leader is slow: its automatic upload still in
// flight as autoSync goes off, its answer to the forwarded sync() arriving late, or the leader
// closing before it answered.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../server/test/helpers/backends.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/client.js';
import { launchChromium } from './support/chromium.js';
import type { Gate } from './support/gate.js';
import {
  enroll,
  gatedTracker,
  openTracker,
  queueCount,
  recordFix,
  waitUntilStarted,
  type Tracker,
} from './support/tracker-page.js';

const autoSyncOff = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Tracker).waypostTracker.bg.setConfig({ http: { autoSync: false } }));

const syncIn = (page: Page) =>
  page.evaluate(async () => (await (globalThis as unknown as Tracker).waypostTracker.bg.sync()).map((l) => l.uuid));

/**
 * The page's BroadcastChannel messages are held until the returned function lets them go, in
 * order: a leader whose answers cross to the other tabs late (a busy or starved renderer).
 */
async function delayPosts(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const proto = BroadcastChannel.prototype;
    const original = proto.postMessage;
    const held: (() => void)[] = [];
    proto.postMessage = function (this: BroadcastChannel, message: unknown) {
      held.push(() => original.call(this, message));
    };
    (globalThis as { letPostsGo?: () => void }).letPostsGo = () => {
      proto.postMessage = original;
      for (const send of held) send();
    };
  });
  return () => page.evaluate(() => (globalThis as { letPostsGo?: () => void }).letPostsGo!());
}

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
    const { gate, context } = await gatedTracker(browser, server.url);
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

  /** The second tab, open beside the leader, both with autoSync off, and four records they made. */
  async function twoQuietTabs(context: BrowserContext, gate: Gate, first: Page) {
    const second = await openTracker(context, gate.url);
    await waitUntilStarted(second);
    for (const page of [first, second]) await autoSyncOff(page);
    const recorded = [...(await recordFix(context, [first, second])), ...(await recordFix(context, [first, second]))];
    return { second, recorded };
  }

  it('resolves with every record when the leader answers only after the calling tab ran it itself', async () => {
    const { gate, context, first } = await setup();
    const { second, recorded } = await twoQuietTabs(context, gate, first);
    const letGo = await delayPosts(first);
    // No answer within SYNC_ACCEPT_TIMEOUT_MS: the second tab runs it; the late leader must not.
    const synced = await syncIn(second);
    await letGo();
    expect(synced).toEqual(expect.arrayContaining(recorded));
    expect(gate.delivered.filter((u) => synced.includes(u))).toEqual(synced);
    expect(new Set(gate.delivered).size).toBe(gate.delivered.length);
    expect(await queueCount(second)).toBe(0);
  });

  it('resolves when the leader closes before answering: the calling tab leads next and runs it', async () => {
    const { gate, context, first } = await setup();
    const { second, recorded } = await twoQuietTabs(context, gate, first);
    // Only the leader's upload is held, and never answered: dropping its connection as the page
    // closes made Chromium send it again on a new one (seen here), and deliver it twice.
    const held = gate.hold(1);
    const synced = syncIn(second);
    await held; // the leader's upload of the forwarded sync(), its records locked
    await first.close();
    const delivered = await synced;
    expect(delivered).toEqual(expect.arrayContaining(recorded));
    expect(gate.delivered.filter((u) => delivered.includes(u))).toEqual(delivered);
    expect(new Set(gate.delivered).size).toBe(gate.delivered.length);
    expect(await queueCount(second)).toBe(0);
  });
});
