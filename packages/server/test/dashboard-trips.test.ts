import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const GPX = readFileSync(fileURLToPath(new URL('../../../examples/track.gpx', import.meta.url)), 'utf8');
const HOUR = 3600_000;

/** The example walk's points, read straight from its GPX. */
const walk = [
  ...GPX.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"><ele>([-\d.]+)<\/ele><time>([^<]+)<\/time>/g),
].map((m) => ({ lat: Number(m[1]), lon: Number(m[2]), ele: Number(m[3]), t: Date.parse(m[4]!) }));

/** The walk's length by the spherical law of cosines (not the server's formula): the known distance. */
function knownDistanceM(): number {
  const r = Math.PI / 180;
  let total = 0;
  for (let i = 1; i < walk.length; i++) {
    const a = walk[i - 1]!;
    const b = walk[i]!;
    const cos =
      Math.sin(a.lat * r) * Math.sin(b.lat * r) +
      Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.cos((b.lon - a.lon) * r);
    total += Math.acos(Math.min(1, cos)) * 6_371_008.8;
  }
  return total;
}

/** "1.53 km" or "812 m" as metres. */
const metres = (text: string) => (text.endsWith(' km') ? parseFloat(text) * 1000 : parseFloat(text));

describe('trips and stops of a known GPX walk', () => {
  let server: TestServer;
  let browser: Browser;
  const known = knownDistanceM();
  const walkMs = walk.at(-1)!.t - walk[0]!.t;

  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    // The walk, then the same walk again an hour later: two trips and the stop between them.
    const fixes = [0, HOUR].flatMap((shift, round) =>
      walk.map((p, i) => ({
        ...record(`walk-${round}-${i}`, p.lat, p.lon, new Date(p.t + shift).toISOString()),
        coords: { latitude: p.lat, longitude: p.lon, accuracy: 4, speed: 1.4, heading: 0, altitude: p.ele },
      })),
    );
    expect((await server.post('/locations', { location: fixes, device_id: 'walker' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('measures the walk within 2% of its known length, and the stop between the walks', async () => {
    const reply = await server.admin('/api/dashboard/devices/walker/trips');
    expect(reply.status).toBe(200);
    const { trips, stops } = reply.body;
    expect(trips).toHaveLength(2);
    for (const trip of trips) {
      expect(Math.abs(trip.distanceM - known) / known).toBeLessThan(0.02);
      expect(trip.durationMs).toBe(walkMs);
      expect(trip.points).toBe(walk.length);
      expect(trip.averageSpeedMps).toBeCloseTo(trip.distanceM / (walkMs / 1000), 6);
      expect(trip.maxSpeedMps).toBeGreaterThanOrEqual(trip.averageSpeedMps);
      expect(trip.maxSpeedMps).toBeLessThan(5); // a walk
    }
    expect(stops).toEqual([
      {
        start: walk.at(-1)!.t,
        end: walk[0]!.t + HOUR,
        durationMs: HOUR - walkMs,
        lat: walk.at(-1)!.lat,
        lon: walk.at(-1)!.lon,
      },
    ]);
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`shows the trips and stops table, exports every field and plays a trip back (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      await page.locator('#devices li[data-device="walker"]').click();
      const rows = page.locator('#trips .trips-table tbody tr');
      await expect.poll(() => rows.count(), { timeout: UI_TIMEOUT_MS }).toBe(2);
      const cells = await rows.first().locator('td').allTextContents();
      expect(Math.abs(metres(cells[4]!) - known) / known).toBeLessThan(0.02);
      expect(cells[3]).toBe(`${Math.floor(walkMs / 60_000)} min ${String((walkMs / 1000) % 60).padStart(2, '0')} s`);
      expect(cells[5]).toMatch(/^\d+\.\d km\/h$/);
      expect(await page.locator('#trips .stops-table tbody tr td').nth(2).textContent()).toBe('41 min 20 s');

      // The trip's GPX, fetched as the page's link would (with the session): every point, with its fields.
      const href = await rows.first().locator('a', { hasText: 'GPX' }).getAttribute('href');
      const gpx = await page.evaluate((url) => fetch(url).then((r) => r.text()), href!);
      expect(gpx.match(/<trkpt /g)).toHaveLength(walk.length);
      expect(gpx).toContain(`<ele>${walk[0]!.ele}</ele>`);
      expect(gpx).toContain('<waypost:field name="coords.accuracy">4</waypost:field>');
      const csvHref = await rows.first().locator('a', { hasText: 'CSV' }).getAttribute('href');
      const csv = (await page.evaluate((url) => fetch(url).then((r) => r.text()), csvHref!)).trim().split('\n');
      expect(csv).toHaveLength(walk.length + 1);
      expect(csv[0]).toContain('coords.accuracy,coords.speed');
      expect(csv[0]).toContain('battery.level');

      // Playback over the range: the slider's ends are the first and the last position.
      const marker = page.locator('path.playback-marker');
      await page.locator('#playback').waitFor();
      const end = await page.locator('#playback-slider').getAttribute('max');
      expect(Number(end)).toBe(HOUR + walkMs);
      await page.locator('#playback-slider').fill(end!);
      expect(await marker.getAttribute('data-latlng')).toBe(`${walk.at(-1)!.lat},${walk.at(-1)!.lon}`);
      await page.locator('#playback-slider').fill('0');
      expect(await marker.getAttribute('data-latlng')).toBe(`${walk[0]!.lat},${walk[0]!.lon}`);
      // A trip's Play button replays that trip: the marker moves along it, and pauses.
      await page.selectOption('#playback-speed', '60');
      await rows.nth(1).locator('button.play-trip').click();
      await page.locator('#playback-toggle').filter({ hasText: 'Pause' }).waitFor();
      const second = walk[0]!.t + HOUR;
      await expect
        .poll(async () => Number(await marker.getAttribute('data-t')), { timeout: UI_TIMEOUT_MS })
        .toBeGreaterThan(second + 10_000);
      const moved = await marker.getAttribute('data-latlng');
      expect(moved).not.toBe(`${walk[0]!.lat},${walk[0]!.lon}`);
      await page.click('#playback-toggle');
      const paused = await marker.getAttribute('data-t');
      expect(Number(paused)).toBeLessThan(second + walkMs);
      await page.locator('#playback-toggle').filter({ hasText: 'Play' }).waitFor();
      expect(await marker.getAttribute('data-t')).toBe(paused);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
