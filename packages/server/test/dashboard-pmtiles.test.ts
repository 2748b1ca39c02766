// A local PMTiles archive as the dashboard's basemap (issue 32): an archive written in the test by
// the PMTiles v3 specification (the test lake, gzipped vector tiles) is served by the server at
// /tiles/{z}/{x}/{y} through the `pmtiles` library and drawn by MapLibre with the built-in style,
// with no request past the server; a file that is no archive stops the start with its name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';
import { lakePmtiles } from './helpers/pmtiles-writer.js';
import { LOCAL_WATER, waterShare } from './helpers/vector-tiles.js';

const [LAT, LON] = [45.5017, -73.5535];

describe('a local PMTiles basemap', () => {
  let server: TestServer;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'waypost-pmtiles-'));

  beforeAll(async () => {
    lakePmtiles(join(dir, 'lake.pmtiles'), LAT, LON);
    server = await startTestServer(backends[0]!, { tileFile: join(dir, 'lake.pmtiles') });
    const fix = record('harbour', LAT, LON, new Date().toISOString());
    expect((await server.post('/locations', { location: fix, device_id: 'ferry' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`draws the archive's vector tiles with the built-in style, every request to the server (${label})`, async () => {
      // Every request from the first one (the login page's too).
      const hosts = new Set<string>();
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport, {
        beforeLoad: (opened) => opened.on('request', (request) => hosts.add(new URL(request.url()).host)),
      });
      await page.locator('#map.has-vector-basemap').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => waterShare(page, '#map', LOCAL_WATER), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0.2);
      expect([...hosts]).toEqual([new URL(server.url).host]);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('serves a tile of the archive inflated, and 404 where it has none', async () => {
    const tile = await fetch(`${server.url}/tiles/0/0/0`);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('application/x-protobuf');
    const bytes = new Uint8Array(await tile.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes[0]).not.toBe(0x1f); // no gzip magic: the library inflated it
    expect((await fetch(`${server.url}/tiles/14/0/0`)).status).toBe(404);
    expect((await fetch(`${server.url}/tiles/15/0/0`)).status).toBe(404);
  });

  it('refuses to start on a file that is no PMTiles archive, naming it', async () => {
    const bogus = join(dir, 'bogus.pmtiles');
    writeFileSync(bogus, 'not an archive at all, just text long enough to be read as a header'.repeat(3));
    await expect(startTestServer(backends[0]!, { tileFile: bogus })).rejects.toThrow(/bogus\.pmtiles/);
  });
});
