// The attack suite on accounts, continued (issue 33): password guessing from one address across
// many accounts, a login posted by another origin (login CSRF), a viewer and an operator trying to
// raise their own role or scope (vertical), and a user limited to a device group reaching the
// other devices of the same org (horizontal, by group), before and after an owner changes the group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, loginAs } from './helpers/accounts.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { openLiveFeed } from './helpers/live-feed.js';

const PASSWORD = 'correct horse battery';

describe.each(backends)('escalation and guessing attacks on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  const cookies: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    // Device tokens outlive the hours the tests move the clock by.
    server = await startTestServer(backend, { now: () => clockMs, trustProxy: true, accessTokenTtlSeconds: 86_400 });
    for (const uuid of ['van-1', 'van-2']) {
      tokens[uuid] = (await register(server, 'acme', uuid)).accessToken;
      await call(server, 'POST', '/api/locations', { token: tokens[uuid], body: { location: record(`${uuid}-0`) } });
    }
    expect((await server.admin('/api/groups/vans-1', { method: 'PUT', body: { devices: ['van-1'] } })).status).toBe(
      201,
    );
    for (const [name, role, scope] of [
      ['vic', 'viewer', {}],
      ['opal', 'operator', { orgs: ['acme'] }],
      ['gus', 'viewer', { groups: ['vans-1'] }],
      ...Array.from({ length: 11 }, (_, n) => [`u${n}`, 'viewer', {}] as const),
    ] as const) {
      const body = { name, password: PASSWORD, role, ...scope };
      expect((await server.admin('/api/users', { method: 'POST', body })).status).toBe(201);
    }
    for (const name of ['vic', 'opal', 'gus']) {
      clockMs += 60_000;
      cookies[name] = (await loginAs(server, name, PASSWORD, { 'x-forwarded-for': '198.51.100.9' })).cookie!;
    }
  });
  afterAll(async () => server.stop());
  const as = (user: string, method: string, path: string, body?: unknown) =>
    asSession(server, cookies[user]!, method, path, body, { origin: server.url });

  it('slows guessing from one address across many accounts (per address), not others', async () => {
    clockMs += 3_600_000; // every bucket full
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let n = 0; n < 10; n++) {
      expect((await loginAs(server, `u${n}`, 'a wrong guess here', from('203.0.113.7'))).status, `guess ${n}`).toBe(
        401,
      );
    }
    // The eleventh from that address is refused before any password is looked at, even the right one.
    const limited = await loginAs(server, 'u10', PASSWORD, from('203.0.113.7'));
    expect(limited).toMatchObject({ status: 429, cookie: null, body: { code: 'RATE_LIMITED' } });
    // Single sign-on's entry counts against the same budget.
    expect((await fetch(`${server.url}/api/oidc/login`, { headers: from('203.0.113.7') })).status).toBe(429);
    // Another address logs the same account in.
    expect((await loginAs(server, 'u10', PASSWORD, from('203.0.113.8'))).status).toBe(204);
    // Two seconds later, one more try from the first address.
    clockMs += 2_000;
    expect((await loginAs(server, 'u10', PASSWORD, from('203.0.113.7'))).status).toBe(204);
  });

  it("refuses a login posted from another origin's page (login CSRF), setting no cookie", async () => {
    clockMs += 3_600_000;
    const crossOrigin: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossOrigin) {
      const user = await loginAs(server, 'vic', PASSWORD, headers);
      expect(user).toMatchObject({ status: 403, cookie: null, body: { code: 'CROSS_ORIGIN' } });
      const form = await fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ token: server.adminToken }).toString(),
      });
      // A form post (what another site's page can send without CORS) is no login either way.
      expect([403, 415]).toContain(form.status);
      expect(form.headers.get('set-cookie')).toBeNull();
    }
    // Logging out another origin's way changes nothing either: the session stays.
    const out = await asSession(server, cookies.vic!, 'DELETE', '/api/session', undefined, {
      origin: 'https://evil.example',
    });
    expect(out.status).toBe(403);
    expect((await as('vic', 'GET', '/api/session')).status).toBe(200);
    // From its own origin, the login goes through.
    expect((await loginAs(server, 'vic', PASSWORD, { origin: server.url })).status).toBe(204);
  });

  it('refuses a viewer and an operator every way to raise their own role or scope, changing nothing', async () => {
    const attempts: [string, string, string, unknown][] = [
      ['vic', 'PATCH', '/api/users/vic', { role: 'owner' }],
      ['vic', 'POST', '/api/users', { name: 'vic2', password: PASSWORD, role: 'owner' }],
      ['opal', 'PATCH', '/api/users/opal', { role: 'owner' }],
      ['opal', 'PATCH', '/api/users/opal', { orgs: null }],
      ['opal', 'POST', '/api/users', { name: 'opal2', password: PASSWORD, role: 'operator' }],
      ['opal', 'PUT', '/api/groups/vans-1', { devices: ['van-1', 'van-2'] }],
      ['gus', 'PUT', '/api/groups/vans-1', { devices: ['van-1', 'van-2'] }],
      ['gus', 'PATCH', '/api/users/gus', { groups: null }],
    ];
    for (const [user, method, path, body] of attempts) {
      expect(await as(user, method, path, body), `${user}: ${method} ${path}`).toMatchObject({
        status: 403,
        body: { code: 'ROLE_FORBIDDEN' },
      });
    }
    // The own-password route changes the password only, whatever else is sent with it.
    await as('vic', 'POST', '/api/users/me/password', {
      current: PASSWORD,
      password: 'another long password',
      role: 'owner',
      orgs: null,
    });
    const users = (await server.admin('/api/users')).body as Json[];
    const of = (name: string) => users.find((u) => u.name === name);
    expect([of('vic').role, of('opal').role, of('opal').orgs, of('gus').groups]).toEqual([
      'viewer',
      'operator',
      ['acme'],
      ['vans-1'],
    ]);
    expect(users.map((u) => u.name)).not.toContain('vic2');
    expect(((await server.admin('/api/groups')).body as Json[])[0].devices).toEqual(['van-1']);
  });

  it("keeps a user of a device group out of its org's other devices, and out of one taken from the group", async () => {
    const devices = async () => ((await as('gus', 'GET', '/api/devices')).body as Json[]).map((d) => d.id);
    expect(await devices()).toEqual(['van-1']);
    expect((await as('gus', 'GET', '/api/devices/van-2/locations?format=csv')).status).toBe(404);
    expect((await as('gus', 'GET', '/api/dashboard/devices/van-2/track')).status).toBe(404);
    expect((await as('gus', 'GET', '/api/devices/van-1/locations?format=csv')).status).toBe(200);
    // An operator of acme (the org) sees both.
    expect(((await as('opal', 'GET', '/api/devices')).body as Json[]).map((d) => d.id)).toEqual(['van-1', 'van-2']);

    const feed = await openLiveFeed(server.url, { cookie: cookies.gus! });
    try {
      const send = (device: string, n: number, lat: number) =>
        call(server, 'POST', '/api/locations', {
          token: tokens[device],
          body: { location: record(`${device}-${n}`, lat, lat) },
        });
      await send('van-2', 1, 21);
      await send('van-1', 1, 11);
      await feed.find((p) => p.latitude === 11);
      // The owner swaps the group's devices: van-1 out, van-2 in.
      expect((await server.admin('/api/groups/vans-1', { method: 'PUT', body: { devices: ['van-2'] } })).status).toBe(
        200,
      );
      expect(await devices()).toEqual(['van-2']);
      expect((await as('gus', 'GET', '/api/devices/van-1/locations?format=csv')).status).toBe(404);
      // The open feed learns it within 5 seconds (the server's clock).
      clockMs += 6_000;
      await send('van-1', 2, 12);
      await send('van-2', 2, 22);
      await feed.find((p) => p.latitude === 22);
      expect(feed.positions.map((p) => p.latitude)).toEqual([11, 22]);
    } finally {
      feed.close();
    }
  });
});
