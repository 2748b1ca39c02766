// Roles and org scope over the app's whole route list (issue 33): every route declares its access
// (a route declaring none does not start); and the declared rules are walked with
// real sessions, so a viewer can write nothing, an operator manage no users or retention, and a
// user limited to one org reach nothing of another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
// The app's `waypostRoutes` decoration (its declaration lives with the module that decorates).
import type {} from '../src/http/route-list.js';
import { asSession, loginAs } from './helpers/accounts.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { openLiveFeed } from './helpers/live-feed.js';
import { declaredRules } from './helpers/route-access.js';

const PASSWORD = 'correct horse battery';
const ROUTE_RULES = await declaredRules();
const RULED = Object.entries(ROUTE_RULES).map(([route, rule]) => ({ route, ...rule }));

/** A concrete path for a route: its device parameter is `deviceId`, any other parameter a name that exists nowhere. */
const pathOf = (route: string, deviceId: string): string =>
  route.split(' ')[1]!.replace(':id', encodeURIComponent(deviceId)).replace(/:\w+/g, 'nothing-here');

describe('the access of the route list', () => {
  it('is declared by every route of the app (a route declaring none does not start: route-access.test.ts)', async () => {
    const app = await buildApp({ database: ':memory:', adminToken: 'a'.repeat(32) });
    try {
      await app.ready();
      const routes = app.waypostRoutes;
      expect(routes.length).toBeGreaterThan(100);
      expect(routes.filter((route) => !(route in app.routeAccess))).toEqual([]);
      expect(Object.keys(ROUTE_RULES).length).toBeGreaterThan(50);
    } finally {
      await app.close();
    }
  });
});

/** Each backend, with users limited by org and, again, by a device group holding the same devices. */
const CASES = backends.flatMap((backend) =>
  (['orgs', 'groups'] as const).map((scope) => ({ name: backend.name, backend, scope })),
);

describe.each(CASES)('roles and scope on every ruled route on $name, users limited by $scope', ({ backend, scope }) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  const cookies: Record<string, string> = {};
  let acmeDevice = '';
  let betaDevice = '';
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
    const a = await register(server, 'acme', 'phone-a');
    const b = await register(server, 'beta', 'phone-b');
    await call(server, 'POST', '/api/locations', { token: a.accessToken, body: { location: record('a-1') } });
    await call(server, 'POST', '/api/locations', { token: b.accessToken, body: { location: record('b-1', 10, 20) } });
    // A device registered through an org is named by its uuid there.
    const devices = ((await server.admin('/api/devices')).body as Json[]).map((d) => d.id);
    expect(devices).toEqual(['phone-a', 'phone-b']);
    [acmeDevice, betaDevice] = devices as [string, string];
    if (scope === 'groups') expect((await putGroup([acmeDevice])).status).toBe(201);
    for (const [name, role, orgs] of [
      ['vic', 'viewer', null],
      ['opal', 'operator', null],
      ['acme-viewer', 'viewer', ['acme']],
      ['acme-op', 'operator', ['acme']],
    ] as const) {
      expect(
        (
          await server.admin('/api/users', {
            method: 'POST',
            body: { name, password: PASSWORD, role, [scope]: orgs && (scope === 'orgs' ? orgs : ['acme-fleet']) },
          })
        ).status,
      ).toBe(201);
      clockMs += 60_000;
      cookies[name] = (await loginAs(server, name, PASSWORD)).cookie!;
    }
  });
  afterAll(async () => server.stop());

  /** The group users are limited to (when limited by group): acme's devices, named by an owner. */
  const putGroup = (devices: string[]) => server.admin('/api/groups/acme-fleet', { method: 'PUT', body: { devices } });

  const as = (user: string, route: string, deviceId: string) =>
    asSession(server, cookies[user]!, route.split(' ')[0]!, pathOf(route, deviceId), undefined, { origin: server.url });

  it('refuses a viewer every route above viewer, and an operator every owner route (403 ROLE_FORBIDDEN)', async () => {
    const above = RULED.filter((rule) => rule.role !== 'viewer');
    expect(above.length).toBeGreaterThan(20);
    for (const { route, role } of above) {
      expect(await as('vic', route, acmeDevice), `viewer: ${route}`).toMatchObject({
        status: 403,
        body: { code: 'ROLE_FORBIDDEN' },
      });
      if (role === 'owner') {
        expect(await as('opal', route, acmeDevice), `operator: ${route}`).toMatchObject({
          status: 403,
          body: { code: 'ROLE_FORBIDDEN' },
        });
      }
    }
    // Nothing was changed by the refused writes: both devices still active.
    const statuses = ((await server.admin('/api/devices')).body as Json[]).map((d) => d.status);
    expect(statuses).toEqual(['active', 'active']);
  });

  it("answers a user of org acme 404 on every route reaching org beta's device or no org's data, naming nothing", async () => {
    for (const { route, role, scope } of RULED.filter((rule) => rule.role === 'viewer' && rule.scope !== 'self')) {
      if (scope === 'filtered') continue; // lists and the live feed: narrowed, below
      if (scope === 'global') {
        // Nothing of any org in it: open, and naming neither org's device.
        const reply = await as('acme-viewer', route, betaDevice);
        expect(reply.status, route).toBe(200);
        expect(JSON.stringify(reply.body)).not.toMatch(/phone-|acme|beta/);
        continue;
      }
      const reply = await as('acme-viewer', route, betaDevice);
      expect(reply, `${route} (${role}, ${scope})`).toMatchObject({ status: 404 });
      expect(JSON.stringify(reply.body)).not.toContain(betaDevice);
      expect(JSON.stringify(reply.body)).not.toContain('beta');
      if (scope === 'device') {
        // Its own org's device is there (whatever the route answers, not "not found").
        expect((await as('acme-viewer', route, acmeDevice)).status, `${route} on acme's device`).not.toBe(404);
      }
    }
  });

  it("lists only the user's org's devices, and exports and reads them, but never beta's", async () => {
    for (const path of ['/api/devices', '/api/dashboard/devices']) {
      const reply = await asSession(server, cookies['acme-viewer']!, 'GET', path);
      expect((reply.body as Json[]).map((d) => d.id)).toEqual([acmeDevice]);
      expect(JSON.stringify(reply.body)).not.toContain('beta');
      // An unlimited viewer sees both.
      expect(((await asSession(server, cookies.vic!, 'GET', path)).body as Json[]).length).toBe(2);
    }
    const gpx = await asSession(
      server,
      cookies['acme-viewer']!,
      'GET',
      `/api/devices/${encodeURIComponent(acmeDevice)}/locations?format=gpx`,
    );
    expect(gpx.status).toBe(200);
    expect(String(gpx.body)).toContain('<gpx');
    const other = await asSession(
      server,
      cookies['acme-viewer']!,
      'GET',
      `/api/devices/${encodeURIComponent(betaDevice)}/locations?format=csv`,
    );
    expect(other.status).toBe(404);
  });

  it("sends a user of org acme acme's positions on the live feed and never beta's", async () => {
    const feed = await openLiveFeed(server.url, { cookie: cookies['acme-viewer']! });
    const all = await openLiveFeed(server.url, { cookie: cookies.vic! });
    try {
      const b = await register(server, 'beta', 'phone-b2');
      const a = await register(server, 'acme', 'phone-a2');
      if (scope === 'groups') expect((await putGroup([acmeDevice, 'phone-a2'])).status).toBe(200);
      await call(server, 'POST', '/api/locations', {
        token: b.accessToken,
        body: { location: record('b-live', 11, 21) },
      });
      await call(server, 'POST', '/api/locations', {
        token: a.accessToken,
        body: { location: record('a-live', 12, 22) },
      });
      await call(server, 'POST', '/api/locations', {
        token: b.accessToken,
        body: { location: record('b-live-2', 13, 23) },
      });
      await call(server, 'POST', '/api/locations', {
        token: a.accessToken,
        body: { location: record('a-live-2', 14, 24) },
      });
      await all.atLeast(4);
      await feed.find((p) => p.latitude === 14);
      expect(feed.positions.map((p) => p.latitude)).toEqual([12, 14]);
      expect(all.positions.map((p) => p.latitude)).toEqual([11, 12, 13, 14]);
    } finally {
      feed.close();
      all.close();
    }
  });

  it("lets an operator of org acme share, list and end acme's share links only", async () => {
    const expiresAt = new Date(clockMs + 86_400_000).toISOString();
    const op = (method: string, path: string, body?: unknown) =>
      asSession(server, cookies['acme-op']!, method, path, body, { origin: server.url });
    expect(await op('POST', '/api/shares', { device: betaDevice, expiresAt })).toMatchObject({
      status: 404,
      body: { code: 'UNKNOWN_DEVICE' },
    });
    const mine = await op('POST', '/api/shares', { device: acmeDevice, expiresAt });
    expect(mine.status).toBe(201);
    const theirs = await server.admin('/api/shares', { method: 'POST', body: { device: betaDevice, expiresAt } });
    expect(theirs.status).toBe(201);
    const listed = (await op('GET', '/api/shares')).body as Json[];
    expect(listed.map((share) => share.id)).toEqual([(mine.body as Json).id]);
    expect(JSON.stringify(listed)).not.toContain(betaDevice);
    expect((await op('DELETE', `/api/shares/${theirs.body.id}`)).status).toBe(404);
    expect(((await server.admin('/api/shares')).body as Json[]).find((s) => s.id === theirs.body.id)).toMatchObject({
      deletedAt: null,
    });
    expect((await op('DELETE', `/api/shares/${(mine.body as Json).id}`)).status).toBe(204);
  });

  it("lists and reads only the logs of the user's org's devices", async () => {
    const upload = async (deviceId: string) => {
      const form = new FormData();
      form.append('log', new Blob([`log of ${deviceId}`]), 'log.txt');
      form.append('device_id', deviceId);
      // The devices registered (they hold tokens): no anonymous upload writes for them (issue 41 item 5).
      const reply = await fetch(`${server.url}/api/logs`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${server.adminToken}` },
      });
      expect(reply.status).toBe(201);
      return ((await reply.json()) as { id: number }).id;
    };
    const acmeLog = await upload(acmeDevice);
    const betaLog = await upload(betaDevice);
    const limited = (path: string) => asSession(server, cookies['acme-viewer']!, 'GET', path);
    const listed = (await limited('/api/logs')).body as Json[];
    expect(listed.map((log) => log.id)).toEqual([acmeLog]);
    expect(await limited(`/api/logs/${acmeLog}`)).toEqual({ status: 200, body: `log of ${acmeDevice}` });
    expect(await limited(`/api/logs/${betaLog}`)).toMatchObject({ status: 404 });
    expect(JSON.stringify((await limited(`/api/logs/${betaLog}`)).body)).not.toContain(betaDevice);
    // An unlimited viewer reads both.
    expect(((await asSession(server, cookies.vic!, 'GET', '/api/logs')).body as Json[]).length).toBe(2);
  });

  it("counts the fleet's health over the user's org's devices only", async () => {
    const limited = (await asSession(server, cookies['acme-viewer']!, 'GET', '/api/health')).body as Json;
    const all = (await asSession(server, cookies.vic!, 'GET', '/api/health')).body as Json;
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(limited.devices.map((d: Json) => d.id).every((id: string) => id.startsWith('phone-a'))).toBe(true);
    expect(limited.devices.map((d: Json) => d.id)).toContain(acmeDevice);
    expect(total(limited.counts)).toBe(limited.devices.length);
    expect(total(all.counts)).toBe(all.devices.length);
    expect(all.devices.length).toBeGreaterThan(limited.devices.length);
    expect(JSON.stringify(limited)).not.toContain(betaDevice);
  });
});
