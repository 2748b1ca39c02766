// The README's browser example, as a page of the Waypost server's origin would run it: a module
// script importing the bundle the server serves, in Chromium, with a position to report.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../browser/test/support/chromium.js';
import { block } from './readme-blocks.js';
import { admin, startWorld, storedAtLeast } from './readme-world.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('README: the browser', () => {
  it('the quick-start page records the browser position and the server stores it', async () => {
    const { server } = await startWorld();
    const context = await browser.newContext({ geolocation: { latitude: 45.5017, longitude: -73.5673, accuracy: 9 } });
    onTestFinished(() => context.close());
    await context.grantPermissions(['geolocation'], { origin: server.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The page itself is the user's; the bundle and the upload URL are the server's.
    await page.route(`${server.url}/readme-example.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><script type="module">\n${block('browser-quickstart').code}</script>`,
      }),
    );
    await page.goto(`${server.url}/readme-example.html`);
    const device = block('browser-quickstart').code.match(/device_id: '([^']+)'/)?.[1];
    expect(device).toBeDefined();
    await storedAtLeast(server, device!, 1);
    const [location] = await admin<{ latitude: number; longitude: number }[]>(
      server,
      `/api/devices/${device}/locations`,
    );
    expect(location).toMatchObject({ latitude: 45.5017, longitude: -73.5673 });
    expect(errors).toEqual([]);
  });
});
