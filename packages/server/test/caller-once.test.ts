// Issue 44: the caller of a request (here a user's session) is looked up once, however many parts of
// the server ask who it is (the role gate, the audit trail, the route's own gate). Counted at the
// database: every statement the server runs while it answers one request is recorded.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { SqlValue } from '../src/db/database.js';
import { backends } from './helpers/backends.js';

const ADMIN = 'admin-secret-admin-secret-admin-secret';
const PASSWORD = 'correct horse battery';

describe.each(backends)('the caller of a session request on $name', (backend) => {
  let app: FastifyInstance;
  let url = '';
  let drop: () => Promise<void> = async () => undefined;
  let statements: string[] | null = null;

  beforeAll(async () => {
    const storage = await backend.create();
    drop = storage.drop;
    app = await buildApp({ ...storage.options, adminToken: ADMIN, mapStyle: null });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    // Record what the server asks its database while a request is measured (statements of
    // background duties, such as a live feed's poll, are told apart by the tables they name).
    const db = app.waypost.db;
    for (const method of ['query', 'run'] as const) {
      const original = db[method].bind(db) as (sql: string, params?: readonly SqlValue[]) => Promise<unknown>;
      Object.assign(db, {
        [method]: (sql: string, params?: readonly SqlValue[]) => {
          statements?.push(sql);
          return original(sql, params);
        },
      });
    }
  });
  afterAll(async () => {
    await app?.close();
    await drop();
  });

  const send = (path: string, init: RequestInit) => fetch(url + path, init);

  async function sessionOf(name: string, role: string, limit: Record<string, string[]> = {}): Promise<string> {
    const created = await send('/api/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, password: PASSWORD, role, ...limit }),
    });
    expect(created.status).toBe(201);
    const login = await send('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: name, password: PASSWORD }),
    });
    expect(login.status).toBe(204);
    return login.headers.get('set-cookie')!.split(';')[0]!;
  }

  /** The statements run while the request is answered. */
  async function measure(path: string, init: RequestInit): Promise<{ status: number; statements: string[] }> {
    statements = [];
    const response = await send(path, init);
    await response.arrayBuffer();
    const seen = statements;
    statements = null;
    return { status: response.status, statements: seen };
  }

  const naming = (table: string, list: string[]) => list.filter((sql) => new RegExp(`\\b${table}\\b`, 'i').test(sql));

  it('reads the session and its user in one lookup for GET /api/geofences', async () => {
    const cookie = await sessionOf('vera', 'viewer');
    const { status, statements: seen } = await measure('/api/geofences', { headers: { cookie } });
    expect(status).toBe(200);
    expect(naming('sessions', seen)).toHaveLength(1);
    expect(naming('users', seen)).toEqual(naming('sessions', seen));
  });

  it('looks the caller up once for a write, audited, by a user limited to an org', async () => {
    const cookie = await sessionOf('olga', 'operator', { orgs: ['acme'] });
    const { status, statements: seen } = await measure('/api/geofences', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'home', latitude: 48.1, longitude: 11.5, radius: 100 }),
    });
    expect(status).toBeLessThan(500);
    expect(naming('sessions', seen)).toHaveLength(1);
    expect(naming('users', seen)).toHaveLength(1);
  });

  it('refuses a gone user after the same single lookup', async () => {
    const cookie = await sessionOf('gone', 'viewer');
    const removed = await send('/api/users/gone', { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(removed.status).toBeLessThan(300);
    const { status, statements: seen } = await measure('/api/geofences', { headers: { cookie } });
    expect(status).toBe(401);
    expect(naming('sessions', seen)).toHaveLength(1);
  });
});
