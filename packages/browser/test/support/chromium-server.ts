// One Chromium for the page tests of a run (registered as the globalSetup of vitest's "pages"
// project, so a run without page tests starts none). A launch costs a second or more of both cores
// on this machine, and 38 test files used to pay it each; now each file connects to this one
// (launchChromium() in ./chromium.ts), and its browser.close() only closes the contexts it made and
// disconnects. Each test still gets a fresh context, so no page sees another's storage or cookies.
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, SHARED_CHROMIUM_ENV, assertChromiumInstalled } from './chromium.js';

/**
 * Functions the leftover check (scripts/test-leftovers) awaits before it lists what a run left
 * running: this Chromium is the run's own, closed at the end, not a test's leftover.
 */
const BEFORE_LEFTOVER_CHECK = Symbol.for('waypost.test-leftovers.before-check');

export default async function setup(): Promise<() => Promise<void>> {
  assertChromiumInstalled();
  const server: BrowserServer = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const saved = process.env[SHARED_CHROMIUM_ENV];
  // Set before vitest starts its workers, which inherit it.
  process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
  let closed: Promise<void> | null = null;
  const close = () => (closed ??= server.close());
  const state = globalThis as { [BEFORE_LEFTOVER_CHECK]?: Array<() => Promise<void>> };
  (state[BEFORE_LEFTOVER_CHECK] ??= []).push(close);
  return async () => {
    if (saved === undefined) delete process.env[SHARED_CHROMIUM_ENV];
    else process.env[SHARED_CHROMIUM_ENV] = saved;
    await close();
  };
}
