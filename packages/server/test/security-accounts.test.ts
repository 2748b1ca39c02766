// Attacks on user accounts (issue 33): session fixation, cross-origin writes on a user's session
// (CSRF) on every state-changing route, and password guessing against one account from many
// addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, loginAs } from './helpers/accounts.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { declaredRules } from './helpers/route-access.js';

const ROUTE_RULES = await declaredRules();

const PASSWORD = 'correct horse battery';

describe.each(backends)('attacks on user accounts on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs, trustProxy: true });
    await server.post('/locations', { location: record('x-1'), device_id: 'truck-1' });
    for (const [name, role] of [
      ['owen', 'owner'],
      ['gina', 'viewer'],
      ['hugo', 'viewer'],
    ]) {
      expect(
        (await server.admin('/api/users', { method: 'POST', body: { name, password: PASSWORD, role } })).status,
      ).toBe(201);
    }
  });
  afterAll(async () => server.stop());
  const login = async (user: string, password = PASSWORD, headers: Record<string, string> = {}) => {
    clockMs += 60_000;
    return loginAs(server, user, password, headers);
  };

  it('never accepts a session id planted before the login (session fixation)', async () => {
    const planted = `waypost_session=${'A'.repeat(43)}`;
    expect((await asSession(server, planted, 'GET', '/api/devices')).status).toBe(401);
    const reply = await login('gina', PASSWORD, { cookie: planted });
    expect(reply.status).toBe(204);
    expect(reply.cookie).toMatch(/^waypost_session=[\w-]{43}$/);
    expect(reply.cookie).not.toBe(planted);
    expect((await asSession(server, planted, 'GET', '/api/devices')).status).toBe(401);
    expect((await asSession(server, reply.cookie!, 'GET', '/api/devices')).status).toBe(200);
    // A session id a user had before logging in again (another's, left on a shared machine) ends.
    const again = await login('hugo', PASSWORD, { cookie: reply.cookie! });
    expect(again).toMatchObject({ status: 204 });
    expect((await asSession(server, reply.cookie!, 'GET', '/api/devices')).status).toBe(401);
    expect((await asSession(server, again.cookie!, 'GET', '/api/session')).body).toMatchObject({ user: 'hugo' });
  });

  it("refuses every state-changing route on an owner's session from another origin (CSRF), changing nothing", async () => {
    const owner = (await login('owen')).cookie!;
    const crossOrigin: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    const writes = Object.keys(ROUTE_RULES).filter((route) => !route.startsWith('GET '));
    expect(writes.length).toBeGreaterThan(20);
    for (const route of writes) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(':id', 'truck-1').replace(':name', 'gina').replace(/:\w+/g, 'x');
      for (const headers of crossOrigin) {
        // The cookie counts for nothing: a 401, or the body's 400 before it (both change nothing).
        const status = (await asSession(server, owner, method, url, undefined, headers)).status;
        expect([400, 401], `${route} ${JSON.stringify(headers)}`).toContain(status);
      }
    }
    // Well-formed writes, each of which the owner's session may make from its own origin: 401.
    const valid: [string, string, unknown][] = [
      ['POST', '/api/users', { name: 'evil', password: PASSWORD, role: 'owner' }],
      ['PATCH', '/api/users/gina', { role: 'owner' }],
      ['DELETE', '/api/users/hugo', undefined],
      ['POST', '/api/devices/truck-1/block', undefined],
      ['POST', '/api/users/me/password', { current: PASSWORD, password: 'attacker chosen pw' }],
    ];
    for (const [method, path, body] of valid) {
      for (const headers of crossOrigin) {
        expect((await asSession(server, owner, method, path, body, headers)).status, `${method} ${path}`).toBe(401);
      }
    }
    const users = (await server.admin('/api/users')).body as Json[];
    expect(users.map((u) => `${u.name}:${u.role}`)).toEqual(['gina:viewer', 'hugo:viewer', 'owen:owner']);
    expect((await server.admin('/api/devices/truck-1')).body.status).toBe('active');
    // The same write from the dashboard's own origin goes through.
    const same = await asSession(
      server,
      owner,
      'PATCH',
      '/api/users/hugo',
      { role: 'operator' },
      { origin: server.url },
    );
    expect(same.status).toBe(200);
  });

  it('slows password guessing per account, whatever addresses the guesses come from', async () => {
    const guess = (n: number, password: string, user = 'gina') =>
      loginAs(server, user, password, { 'x-forwarded-for': `203.0.113.${n}` });
    clockMs += 3_600_000; // every bucket full
    for (let n = 1; n <= 10; n++) expect((await guess(n, `guess number ${n}`)).status).toBe(401);
    // The eleventh try is refused before the password is looked at, even the right one, from a new address.
    const limited = await guess(11, PASSWORD);
    expect(limited).toMatchObject({ status: 429, cookie: null, body: { code: 'RATE_LIMITED' } });
    expect(JSON.stringify(limited.body)).toContain('this account');
    // Another account is not locked by it.
    expect((await guess(12, PASSWORD, 'owen')).status).toBe(204);
    // A minute later one more try is allowed.
    clockMs += 60_000;
    expect((await guess(13, PASSWORD)).status).toBe(204);
  });
});
