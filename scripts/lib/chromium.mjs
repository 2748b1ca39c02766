// Debian's Chromium as the benchmarks and the screenshot scripts start it (the tests start it the
// same way: packages/browser/test/support/chromium.ts): headless, nothing of its own on the network.
import { chromium } from 'playwright-core';

/** The two sizes every dashboard view is checked and shown at: a desktop and a phone. */
export const BOTH_SIZES = [
  ['1440x900', { width: 1440, height: 900 }],
  ['390x844', { width: 390, height: 844 }],
];

export const launchChromium = () =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
