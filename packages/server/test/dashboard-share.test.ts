import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { launchChromium } from './helpers/browser.js';
import { type Json, record, startTestServer, type TestServer } from './helpers/client.js';
import { BOTH_SIZES, openDashboard, UI_TIMEOUT_MS } from './helpers/dashboard-page.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('share links', () => {
  let server: TestServer;
  let browser: Browser;
  const log: string[] = [];
  const start = Date.now();
  let clock = start;
  // The shared window: the morning drive; the afternoon one must not show.
  const morning = [0, 1, 2, 3].map((i) =>
    record(`m-${i}`, 45.5 + i * 0.002, -73.57, new Date(start - 5 * HOUR + i * MINUTE).toISOString()),
  );
  const afternoon = [0, 1, 2].map((i) =>
    record(`a-${i}`, 45.6 + i * 0.002, -73.5, new Date(start - HOUR + i * MINUTE).toISOString()),
  );
  const window = { from: start - 6 * HOUR, to: start - 4 * HOUR };

  beforeAll(async () => {
    server = await startTestServer(backends[0]!, {
      now: () => clock,
      logger: true,
      logStream: { write: (line: string) => void log.push(line) },
    });
    const reply = await server.post('/locations', { location: [...morning, ...afternoon], device_id: 'courier-7' });
    expect(reply.status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const create = async (body: Record<string, unknown>) => server.admin('/api/shares', { method: 'POST', body });

  it('are created by the admin only, with a token stored hashed and never logged', async () => {
    const expiresAt = new Date(start + HOUR).toISOString();
    expect((await fetch(`${server.url}/api/shares`, { method: 'POST' })).status).toBe(401);
    expect((await create({ device: 'nobody', expiresAt })).status).toBe(404);
    expect((await create({ device: 'courier-7' })).status).toBe(400);
    expect((await create({ device: 'courier-7', expiresAt: new Date(start - 1).toISOString() })).status).toBe(400);
    expect((await create({ device: 'courier-7', expiresAt, from: window.to, to: window.from })).status).toBe(400);

    const reply = await create({ device: 'courier-7', expiresAt, ...window });
    expect(reply.status).toBe(201);
    const token = new URL(reply.body.url).pathname.split('/')[2]!;
    expect(reply.body.url).toBe(`${server.url}/s/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    const page = await fetch(reply.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const track = (await (await fetch(`${reply.body.url}/track`)).json()) as Json;
    // The window's drive (simplified: its ends at least), none of the afternoon's.
    const times = track.trips.flat().map((p: number[]) => p[2]);
    expect(times[0]).toBe(Date.parse(morning[0]!.timestamp));
    expect(times.at(-1)).toBe(Date.parse(morning.at(-1)!.timestamp));
    expect(times.every((t: number) => t >= window.from && t <= window.to)).toBe(true);
    expect(Object.keys(track).sort()).toEqual(['expiresAt', 'from', 'name', 'newest', 'to', 'trips']);

    const db = new Database(server.storage.database!, { readonly: true });
    try {
      const stored = db.prepare('SELECT * FROM shares').all() as Record<string, unknown>[];
      expect(stored).toHaveLength(1);
      expect(stored[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(stored)).not.toContain(token);
    } finally {
      db.close();
    }
    expect(log.some((line) => line.includes('/s/[REDACTED]'))).toBe(true);
    expect(log.filter((line) => line.includes(token))).toEqual([]);
    // A token that is not one: 404, and the same for one of the right shape that was never issued.
    expect((await fetch(`${server.url}/s/nope/track`)).status).toBe(404);
    expect((await fetch(`${server.url}/s/${'A'.repeat(43)}/track`)).status).toBe(404);
  });

  it('answer 410 after their expiry and after DELETE /api/shares/:id', async () => {
    const expiring = await create({ device: 'courier-7', expiresAt: start + HOUR });
    const deleted = await create({ device: 'courier-7', expiresAt: start + 2 * HOUR });
    expect((await fetch(`${expiring.body.url}/track`)).status).toBe(200);
    expect((await server.admin(`/api/shares/${deleted.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.admin(`/api/shares/${deleted.body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(deleted.body.url)).status).toBe(410);
    expect((await fetch(`${deleted.body.url}/track`)).status).toBe(410);
    clock = start + HOUR; // the server's clock reaches the expiry
    expect((await fetch(expiring.body.url)).status).toBe(410);
    expect((await fetch(`${expiring.body.url}/track`)).status).toBe(410);
    const listed = (await server.admin('/api/shares?device=courier-7')).body;
    expect(listed.filter((s: { active: boolean }) => s.active)).toHaveLength(0);
    clock = start;
  });

  for (const [label, viewport] of BOTH_SIZES) {
    it(`made in the dashboard, open without a login and show only that track; withdrawn, the page says so (${label})`, async () => {
      const { page, problems } = await openDashboard(browser, server.url, server.adminToken, viewport);
      await page.selectOption('#range-preset', 'custom');
      const local = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * MINUTE).toISOString().slice(0, 19);
      await page.fill('#range-from', local(window.from));
      await page.fill('#range-to', local(window.to));
      await page.click('#range-apply');
      await page.locator('#devices li[data-device="courier-7"]').click();
      await page.locator('#share-create').click();
      const url = page.locator('#share-url');
      await expect.poll(() => url.inputValue(), { timeout: UI_TIMEOUT_MS }).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
      const shareUrl = await url.inputValue();

      // Another browser, no cookie: the track of the window and nothing else.
      const visitor = await browser.newContext({ viewport });
      const view = await visitor.newPage();
      const requests: string[] = [];
      view.on('request', (request) => requests.push(new URL(request.url()).pathname));
      await view.goto(shareUrl);
      await expect.poll(() => view.locator('path.share-trip').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
      expect(await view.locator('path.share-marker').count()).toBe(1);
      expect(await view.locator('#login, #app, #devices').count()).toBe(0);
      expect(requests.filter((path) => path.startsWith('/api/'))).toEqual([]);

      // Withdrawn from the dashboard: the page now says so, with a 410.
      const withdraw = page.locator(`#share button.share-delete[data-share="${await url.getAttribute('data-share')}"]`);
      await withdraw.click();
      await expect.poll(() => withdraw.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
      const reload = await view.reload();
      expect(reload!.status()).toBe(410);
      await view.locator('#share-gone').filter({ hasText: 'expired or was withdrawn' }).waitFor();
      await visitor.close();
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});

describe.each(backends)('share links and trips on $name', (backend) => {
  let server: TestServer;
  const start = Date.now();
  let clock = start;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock });
    const drive = [0, 1, 2].map((i) =>
      record(`d-${i}`, 45.5 + i * 0.001, -73.57, new Date(start - HOUR + i * MINUTE).toISOString()),
    );
    expect((await server.post('/locations', { location: drive, device_id: 'van' })).status).toBe(200);
    const named = await server.post('/auth/register', { uuid: 'phone-uuid-1', name: 'Front desk phone' });
    expect(named.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('live until expiry or withdrawal, then 410; trips measured; names kept', async () => {
    const share = await server.admin('/api/shares', {
      method: 'POST',
      body: { device: 'van', expiresAt: start + HOUR },
    });
    expect(share.status).toBe(201);
    const track = await fetch(`${share.body.url}/track`);
    expect(track.status).toBe(200);
    expect(((await track.json()) as Json).trips).toHaveLength(1);
    const listed = await server.admin('/api/shares?device=van');
    expect(listed.body).toEqual([expect.objectContaining({ id: share.body.id, device: 'van', active: true })]);
    clock = start + HOUR;
    expect((await fetch(`${share.body.url}/track`)).status).toBe(410);
    clock = start;
    const other = await server.admin('/api/shares', {
      method: 'POST',
      body: { device: 'van', expiresAt: start + HOUR },
    });
    expect((await server.admin(`/api/shares/${other.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(other.body.url)).status).toBe(410);

    const trips = (await server.admin('/api/dashboard/devices/van/trips')).body;
    expect(trips.trips).toHaveLength(1);
    expect(trips.trips[0].distanceM).toBeGreaterThan(200);
    expect(trips.trips[0].distanceM).toBeLessThan(250); // two steps of 0.001° of latitude: 222 m
    const devices = (await server.admin('/api/dashboard/devices')).body;
    expect(devices.find((d: { id: string }) => d.id === 'phone-uuid-1').name).toBe('Front desk phone');
  });
});
