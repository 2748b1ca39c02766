import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; scripts/run-tests.mjs installs it when missing (and fails under CI rather than skip). */
export const CHROMIUM = '/usr/bin/chromium';
/** Headless, and nothing of Chromium's own that would talk to the network or slow a start. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where the run's shared Chromium listens (set by ./chromium-server.ts, vitest's "pages" project). */
export const SHARED_CHROMIUM_ENV = 'WAYPOST_TEST_CHROMIUM_WS';

export function assertChromiumInstalled(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run npm test (it installs it) or apt-get install -y chromium`);
  }
}

/**
 * The browser of one test file; each test takes a context of its own. In a run of the "pages"
 * project this connects to the run's one Chromium (closing it then closes this file's contexts and
 * disconnects); a file run outside that project launches its own, as before.
 */
export async function launchChromium(): Promise<Browser> {
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared !== undefined && shared !== '') return chromium.connect(shared);
  assertChromiumInstalled();
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
