// User names are one name whatever their case (issue 45): `Admin` cannot be made beside `admin`,
// and logs in as `admin`. A database from before, holding names that differ only by case, keeps
// the oldest as the name's account; the later ones cannot log in (said in the log, with a code)
// until an owner deletes them, and then the name is whole again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@waypost/server';
import { asSession, loginAs } from './helpers/accounts.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { captureLog } from './helpers/log-lines.js';
import { openStorage } from './helpers/open-storage.js';
import { rawSql } from './helpers/raw-sql.js';
import { hashPassword } from '../src/accounts/password.js';
import { migrate, USER_NAME_KEY_VERSION } from '../src/db/migrations.js';

const PASSWORD = 'correct horse battery';
const OTHER_PASSWORD = 'another long passphrase';

describe.each(backends)('user names by case on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    const made = await server.admin('/api/users', {
      method: 'POST',
      body: { name: 'admin', password: PASSWORD, role: 'viewer' },
    });
    expect(made.status).toBe(201);
  });
  afterAll(async () => server.stop());

  it('refuses a name that differs from an existing one only by case', async () => {
    for (const name of ['Admin', 'ADMIN', 'aDmIn']) {
      const made = await server.admin('/api/users', {
        method: 'POST',
        body: { name, password: OTHER_PASSWORD, role: 'owner' },
      });
      expect({ name, status: made.status, code: made.body.code }).toEqual({ name, status: 409, code: 'USER_EXISTS' });
    }
    const names = ((await server.admin('/api/users')).body as { name: string }[]).map((user) => user.name);
    expect(names).toEqual(['admin']);
    // "me" names the caller in any case.
    const me = await server.admin('/api/users', {
      method: 'POST',
      body: { name: 'ME', password: PASSWORD, role: 'viewer' },
    });
    expect(me.status).toBe(400);
  });

  it('logs in as the one account whatever the case typed', async () => {
    const login = await loginAs(server, 'ADMIN', PASSWORD);
    expect(login.status).toBe(204);
    expect((await asSession(server, login.cookie!, 'GET', '/api/session')).body).toMatchObject({
      authenticated: true,
      user: 'admin',
      role: 'viewer',
    });
    expect((await loginAs(server, 'Admin', OTHER_PASSWORD)).status).toBe(401);
  });
});

describe.each(backends)('upgrading accounts that differ only by case on $name', (backend) => {
  it('keeps the oldest as the name, stops the others logging in, and mends once they are deleted', async () => {
    const storage = await backend.create();
    try {
      const before = await openStorage(storage.options);
      await migrate(before, USER_NAME_KEY_VERSION - 1);
      await before.close();
      for (const [name, password, role, createdAt] of [
        ['ops', PASSWORD, 'viewer', 1],
        ['Ops', OTHER_PASSWORD, 'owner', 2],
        ['OPS', OTHER_PASSWORD, 'operator', 3],
      ] as const)
        await rawSql(
          storage.options,
          `INSERT INTO users (name, password_hash, role, orgs, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)`,
          [name, await hashPassword(password), role, createdAt, createdAt],
        );
      const log = captureLog();
      const server = await startServer({
        port: 0,
        adminToken: 'admin-secret',
        mapStyle: null,
        ...storage.options,
        logger: true,
        logStream: log.stream,
      });
      const test = { url: server.url } as TestServer;
      try {
        const clashes = log.lines.filter((line) => line.code === 'USER_NAME_CLASH');
        expect(clashes.map((line) => [line['user'], line['clashesWith']])).toEqual([
          ['Ops', 'ops'],
          ['OPS', 'ops'],
        ]);
        // The oldest logs in by any case; the later owner's password opens nothing.
        const ops = await loginAs(test, 'OPS', PASSWORD);
        expect(ops.status).toBe(204);
        expect((await asSession(test, ops.cookie!, 'GET', '/api/session')).body).toMatchObject({ user: 'ops' });
        for (const typed of ['Ops', 'OPS', 'ops'])
          expect((await loginAs(test, typed, OTHER_PASSWORD)).status).toBe(401);
        // Listed, so an owner finds and deletes them by their exact names.
        const admin = (method: string, path: string) =>
          fetch(server.url + path, { method, headers: { authorization: 'Bearer admin-secret' } });
        const names = ((await (await admin('GET', '/api/users')).json()) as { name: string }[]).map((u) => u.name);
        expect(names.sort()).toEqual(['OPS', 'Ops', 'ops']);
        expect((await admin('DELETE', '/api/users/Ops')).status).toBe(200);
        expect((await admin('DELETE', '/api/users/OPS')).status).toBe(200);
        const again = await fetch(`${server.url}/api/users`, {
          method: 'POST',
          headers: { authorization: 'Bearer admin-secret', 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'OPS', password: OTHER_PASSWORD, role: 'viewer' }),
        });
        expect(again.status).toBe(409);
      } finally {
        await server.close();
      }
    } finally {
      await storage.drop();
    }
  });
});
