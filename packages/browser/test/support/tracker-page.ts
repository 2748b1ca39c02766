import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';
import { startGate, type Gate } from './gate.js';

/** The SDK instance the tracker page exposes, as the tests drive it (packages/server/pages/track/track.ts). */
export type Tracker = {
  waypostTracker: { bg: { setConfig(c: unknown): Promise<unknown>; sync(): Promise<{ uuid: string }[]> } };
};

/** What the tracker page exposes on globalThis for tests (see packages/server/pages/track/track.ts). */
interface TrackerGlobal {
  waypostTracker?: {
    loaded?: boolean;
    started?: boolean;
    bg: {
      getCount(): Promise<number>;
      getLocations(): Promise<{ uuid: string }[]>;
      onLocation(fn: (l: { uuid: string }) => void): { remove(): void };
      onHttp(fn: (e: { success: boolean }) => void): { remove(): void };
    };
  };
  nextFix?: Promise<string>;
}

/** Opens /track/ on a context that may use geolocation, and waits until the page script has run. */
export async function openTracker(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/track/`);
  await page.waitForFunction(() => (globalThis as unknown as TrackerGlobal).waypostTracker?.loaded === true);
  return page;
}

/** Resolves when the page's tracker has started (it records and uploads). */
export async function waitUntilStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => (globalThis as unknown as TrackerGlobal).waypostTracker?.started === true);
}

/** Fills the enrollment form as a user would; resolves when the page records. */
export async function enroll(page: Page, name: string): Promise<void> {
  await page.fill('#device-name', name);
  await page.click('#enroll-form button[type=submit]');
  await waitUntilStarted(page);
}

/** Fills the enrollment form and submits it; resolves when the page shows `message` as the refusal. */
export async function enrollRefused(page: Page, name: string, message: string): Promise<void> {
  await page.fill('#device-name', name);
  await page.click('#enroll-form button[type=submit]');
  await page.locator('#enroll-error').filter({ hasText: message }).waitFor();
}

/**
 * Two tabs of /track/ on one context: the first enrolls as `name` (and so leads the uploads), the
 * second opens once it has and starts on the same device and queue.
 */
export async function openTwoTabs(context: BrowserContext, origin: string, name: string): Promise<[Page, Page]> {
  const first = await openTracker(context, origin);
  await enroll(first, name);
  const second = await openTracker(context, origin);
  await waitUntilStarted(second);
  return [first, second];
}

let nextLatitude = 48.1;

/**
 * Moves the emulated position and resolves with the uuid of the record each given page made of
 * the fix (every open tracker watches the position).
 */
export async function recordFix(context: BrowserContext, pages: Page[]): Promise<string[]> {
  for (const page of pages) {
    await page.evaluate(() => {
      (globalThis as unknown as TrackerGlobal).nextFix = new Promise((resolve) => {
        const sub = (globalThis as unknown as TrackerGlobal).waypostTracker!.bg.onLocation(
          (l) => (sub.remove(), resolve(l.uuid)),
        );
      });
    });
  }
  nextLatitude += 0.001;
  await context.setGeolocation({ latitude: nextLatitude, longitude: 11.5, accuracy: 5 });
  return Promise.all(pages.map((page) => page.evaluate(() => (globalThis as unknown as TrackerGlobal).nextFix!)));
}

export const queuedUuids = (page: Page) =>
  page.evaluate(async () =>
    (await (globalThis as unknown as TrackerGlobal).waypostTracker!.bg.getLocations()).map((l) => l.uuid),
  );

export const queueCount = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as TrackerGlobal).waypostTracker!.bg.getCount());

/**
 * Resolves once the page's queue is empty: every upload answered and its records deleted (the SDK
 * fires onHttp after the delete). The gate counts an upload delivered when the server has answered,
 * before the page has read the answer: a page reloaded in that moment uploads those records again,
 * as a crash between the answer and the delete must (at-least-once, docs/sdk-api.md).
 */
export const queueEmptied = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const bg = (globalThis as unknown as TrackerGlobal).waypostTracker!.bg;
        const check = async () => {
          if ((await bg.getCount()) > 0) return;
          subscription.remove();
          resolve();
        };
        const subscription = bg.onHttp(() => void check());
        void check();
      }),
  );

/**
 * Takes the context offline once the service worker is active (install waits until it has cached
 * the page's files) and what start() recorded (its first fix) is delivered: an upload still in
 * flight would land after what the test records offline.
 */
export async function goOfflineWhenDrained(context: BrowserContext, page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.locator('#last-fix').filter({ hasNotText: 'none yet' }).waitFor();
  await expect.poll(() => queueCount(page)).toBe(0);
  await context.setOffline(true);
}

/**
 * A context on which /track may use the (emulated) position and, unless told otherwise, register
 * Background Sync (without it, the browser never fires a one-off sync on its own).
 */
export async function trackerContext(browser: Browser, origin: string, backgroundSync = true): Promise<BrowserContext> {
  const context = await browser.newContext({ geolocation: { latitude: 48.1, longitude: 11.5, accuracy: 5 } });
  await context.grantPermissions(['geolocation', ...(backgroundSync ? ['background-sync'] : [])], { origin });
  return context;
}

/**
 * A fresh gate to `upstream` (its own origin, so its own IndexedDB and service worker) and a tracker
 * context on it, both closed when the test finishes.
 */
export async function gatedTracker(
  browser: Browser,
  upstream: string,
  backgroundSync = true,
): Promise<{ gate: Gate; context: BrowserContext }> {
  const gate = await startGate(upstream);
  const context = await trackerContext(browser, gate.url, backgroundSync);
  onTestFinished(async () => {
    await context.close();
    await gate.close();
  });
  return { gate, context };
}
