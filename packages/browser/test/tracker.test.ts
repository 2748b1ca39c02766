import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { backends } from '../../server/test/helpers/backends.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/client.js';
import { launchChromium } from './support/chromium.js';
import { startGate, type Gate } from './support/gate.js';
import { enroll, openTracker, queueCount, queuedUuids, recordFix, trackerContext } from './support/tracker-page.js';

describe('the /track page in Chromium', () => {
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

  /** A fresh gate (own origin, so own IndexedDB and service worker) and context per test. */
  async function setup(): Promise<{ gate: Gate; context: import('playwright-core').BrowserContext }> {
    const gate = await startGate(server.url);
    const context = await trackerContext(browser, gate.url);
    onTestFinished(async () => {
      await context.close();
      await gate.close();
    });
    return { gate, context };
  }

  it('enrolls, records the position and becomes a device the admin API lists with its track', async () => {
    const { gate, context } = await setup();
    const page = await openTracker(context, gate.url);
    await enroll(page, 'phone of test');
    const uuids = [...(await recordFix(context, [page])), ...(await recordFix(context, [page]))];
    await gate.deliveredAtLeast(uuids.length);
    const deviceId = await page.locator('#device-id').textContent();
    const devices = await server.admin('/api/devices');
    const device = devices.body.find((d: { id?: string; deviceId?: string }) => (d.id ?? d.deviceId) === deviceId);
    expect(device).toMatchObject({ model: 'phone of test' });
    expect(gate.delivered).toEqual(expect.arrayContaining(uuids));
    expect(await page.locator('#last-upload').textContent()).toMatch(/delivered \(HTTP 200\)/);
  });
});
