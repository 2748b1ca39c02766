import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from './helpers/open-storage.js';
import { asSession, loginAs } from './helpers/accounts.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const PASSWORD = 'correct horse battery';

describe.each(backends)('user accounts with roles on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
    await server.post('/locations', { location: record('r-1'), device_id: 'truck-1' });
  });
  afterAll(async () => server.stop());

  // Each login spends a token of the per-address and per-account buckets: the clock refills them.
  const login = async (user: string, password = PASSWORD) => {
    clockMs += 60_000;
    return loginAs(server, user, password);
  };
  const create = (name: string, role: string, extra: Record<string, unknown> = {}) =>
    server.admin('/api/users', { method: 'POST', body: { name, password: PASSWORD, role, ...extra } });

  it('creates users with the admin token, keeps only a salted scrypt hash, and never shows it', async () => {
    expect((await create('olivia', 'owner')).status).toBe(201);
    expect((await create('otto', 'operator')).status).toBe(201);
    const viewer = await create('vera', 'viewer');
    expect(viewer).toMatchObject({ status: 201, body: { name: 'vera', role: 'viewer', orgs: null } });
    expect((await create('vera', 'owner')).body).toMatchObject({ code: 'USER_EXISTS' });
    for (const bad of [
      { name: 'x', password: 'short', role: 'viewer' },
      { name: 'me', password: PASSWORD, role: 'viewer' },
      { name: '<script>', password: PASSWORD, role: 'viewer' },
      { name: 'y', password: PASSWORD, role: 'admin' },
    ]) {
      expect((await server.admin('/api/users', { method: 'POST', body: bad })).status).toBe(400);
    }
    const list = (await server.admin('/api/users')).body as Json[];
    expect(list.map((u) => [u.name, u.role])).toEqual([
      ['olivia', 'owner'],
      ['otto', 'operator'],
      ['vera', 'viewer'],
    ]);
    expect(JSON.stringify(list)).not.toMatch(/scrypt|password/);
    const db = await openStorage(server.storage);
    try {
      const rows = await db.query<{ name: string; password_hash: string }>(`SELECT name, password_hash FROM users`);
      const hashes = rows.map((row) => row.password_hash);
      for (const hash of hashes) expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(new Set(hashes.map((h) => h.split('$')[4])).size).toBe(3); // a salt per user: same password, other hashes
      expect(hashes.join()).not.toContain(PASSWORD);
    } finally {
      await db.close();
    }
  });

  it('logs a user in with name and password; a wrong password or unknown user is the same 401', async () => {
    expect(await login('vera', 'wrong password!')).toMatchObject({
      status: 401,
      cookie: null,
      body: { code: 'INVALID_LOGIN' },
    });
    expect(await login('nobody', PASSWORD)).toMatchObject({
      status: 401,
      cookie: null,
      body: { code: 'INVALID_LOGIN' },
    });
    const { status, cookie } = await login('vera');
    expect(status).toBe(204);
    expect(await asSession(server, cookie!, 'GET', '/api/session')).toEqual({
      status: 200,
      body: { authenticated: true, user: 'vera', role: 'viewer', orgs: null, groups: null },
    });
    expect((await asSession(server, cookie!, 'GET', '/api/devices')).status).toBe(200);
  });

  it('lets a viewer read but change nothing, and an operator manage the fleet but not users or retention', async () => {
    const viewer = (await login('vera')).cookie!;
    const operator = (await login('otto')).cookie!;
    const owner = (await login('olivia')).cookie!;
    const same = { origin: server.url };
    const refused = { status: 403, body: expect.objectContaining({ code: 'ROLE_FORBIDDEN' }) };
    for (const [method, path, body] of [
      ['POST', '/api/devices/truck-1/block', undefined],
      ['POST', '/api/devices/truck-1/commands', { command: 'sync' }],
      ['POST', '/api/geofences', { identifier: 'depot', latitude: 1, longitude: 2, radius: 100 }],
      ['POST', '/api/users', { name: 'mallory', password: PASSWORD, role: 'owner' }],
      ['PATCH', '/api/users/vera', { role: 'owner' }],
    ] as const) {
      expect(await asSession(server, viewer, method, path, body, same)).toMatchObject(refused);
    }
    expect((await asSession(server, operator, 'POST', '/api/devices/truck-1/block', undefined, same)).status).toBe(200);
    expect((await asSession(server, operator, 'POST', '/api/devices/truck-1/unblock', undefined, same)).status).toBe(
      200,
    );
    for (const [method, path, body] of [
      ['POST', '/api/users', { name: 'mallory', password: PASSWORD, role: 'owner' }],
      ['PATCH', '/api/users/otto', { role: 'owner' }],
      ['DELETE', '/api/users/vera', undefined],
      ['GET', '/api/users', undefined],
      ['GET', '/api/retention', undefined],
      ['POST', '/api/retention/run', undefined],
      ['GET', '/api/audit', undefined],
      ['DELETE', '/api/devices/truck-1', undefined],
    ] as const) {
      expect(await asSession(server, operator, method, path, body, same)).toMatchObject(refused);
    }
    const users = (await server.admin('/api/users')).body as Json[];
    expect(users.map((u) => `${u.name}:${u.role}`)).toEqual(['olivia:owner', 'otto:operator', 'vera:viewer']);
    expect((await asSession(server, owner, 'GET', '/api/users')).status).toBe(200);
    expect((await asSession(server, owner, 'GET', '/api/retention')).status).toBe(200);
  });

  it('names the user in the audit trail: user:<name> for their login and their changes', async () => {
    const operator = (await login('otto')).cookie!;
    await asSession(server, operator, 'POST', '/api/devices/truck-1/block', undefined, { origin: server.url });
    const entries: Json[] = (await server.admin('/api/audit?limit=1000')).body.entries;
    const mine = entries.filter((e) => e.actor === 'user:otto').map((e) => `${e.action} ${e.status}`);
    expect(mine).toContain('POST /api/session 204');
    expect(mine).toContain('POST /api/devices/:id/block 200');
    const refusedViewer = entries.find((e) => e.actor === 'user:vera' && e.action === 'POST /api/users');
    expect(refusedViewer).toMatchObject({ status: 403 });
  });

  it('ends a user’s sessions when they are demoted, their password is reset, or they are removed', async () => {
    expect((await create('dora', 'operator')).status).toBe(201);
    const alive = async (cookie: string) => (await asSession(server, cookie, 'GET', '/api/devices')).status;
    const first = (await login('dora')).cookie!;
    expect(await alive(first)).toBe(200);
    // Promoting takes nothing away: the session stays.
    expect((await server.admin('/api/users/dora', { method: 'PATCH', body: { role: 'owner' } })).body).toMatchObject({
      role: 'owner',
      sessionsEnded: 0,
    });
    expect(await alive(first)).toBe(200);
    expect((await server.admin('/api/users/dora', { method: 'PATCH', body: { role: 'viewer' } })).body).toMatchObject({
      sessionsEnded: 1,
    });
    expect(await alive(first)).toBe(401);
    const second = (await login('dora')).cookie!;
    const reset = await server.admin('/api/users/dora', {
      method: 'PATCH',
      body: { password: 'a brand new passphrase' },
    });
    expect(reset.body).toMatchObject({ sessionsEnded: 1 });
    expect(await alive(second)).toBe(401);
    expect((await login('dora')).status).toBe(401);
    const third = (await login('dora', 'a brand new passphrase')).cookie!;
    expect((await server.admin('/api/users/dora', { method: 'DELETE' })).body).toEqual({
      deleted: 'dora',
      sessionsEnded: 1,
    });
    expect(await alive(third)).toBe(401);
    expect((await login('dora', 'a brand new passphrase')).status).toBe(401);
  });

  it('changes one’s own password only with the current one, keeping this session and ending the others', async () => {
    const here = (await login('vera')).cookie!;
    const elsewhere = (await login('vera')).cookie!;
    const change = (current: string) =>
      asSession(
        server,
        here,
        'POST',
        '/api/users/me/password',
        { current, password: 'vera new passphrase' },
        { origin: server.url },
      );
    clockMs += 60_000;
    expect(await change('not my password')).toMatchObject({ status: 403, body: { code: 'WRONG_PASSWORD' } });
    clockMs += 60_000;
    expect((await change(PASSWORD)).status).toBe(204);
    expect((await asSession(server, here, 'GET', '/api/devices')).status).toBe(200);
    expect((await asSession(server, elsewhere, 'GET', '/api/devices')).status).toBe(401);
    expect((await login('vera', 'vera new passphrase')).status).toBe(204);
    expect(
      (await server.admin('/api/users/me/password', { method: 'POST', body: { current: 'x', password: PASSWORD } }))
        .body,
    ).toMatchObject({ code: 'NOT_A_USER' });
  });
});
