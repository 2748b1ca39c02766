// Issue 29 item 5: a misspelt key in an admin body or a startServer option is refused with its
// nearest known key, instead of being dropped in silence (a geofence that never dwells, a webhook
// subscribed to every event, a server on the default port). Upload bodies keep taking extras.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerOptions } from '@waypost/server';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

describe('unknown keys in admin bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
  });
  afterAll(async () => server.stop());

  const refused = async (path: string, body: unknown) => {
    const reply = await server.admin(path, { method: 'POST', body });
    expect(reply.status, reply.text).toBe(400);
    return reply.body as { code: string; error: string; key: string; suggestion?: string };
  };

  it('refuses a geofence with loiteringdelay, naming loiteringDelay, and stores nothing', async () => {
    const body = await refused('/api/geofences', {
      identifier: 'depot',
      latitude: 48.1,
      longitude: 11.5,
      radius: 100,
      notifyOnDwell: true,
      loiteringdelay: 5,
    });
    expect(body).toMatchObject({ code: 'INVALID_OPTION', key: 'loiteringdelay', suggestion: 'loiteringDelay' });
    expect(body.error).toContain('Did you mean "loiteringDelay"?');
    expect((await server.admin('/api/geofences')).body).toEqual([]);
  });

  it('refuses a webhook with event (not events) and subscribes nothing', async () => {
    const body = await refused('/api/webhooks', { url: 'http://127.0.0.1:9/hook', event: ['device.enter'] });
    expect(body).toMatchObject({ code: 'INVALID_OPTION', key: 'event', suggestion: 'events' });
    expect((await server.admin('/api/webhooks')).body).toEqual([]);
  });

  it('refuses unknown keys in commands, shares, replays and the login, each with its nearest key', async () => {
    await server.post('/locations', { location: [record('k1')], device_id: 'keyed' });
    expect(await refused('/api/devices/keyed/commands', { comand: 'stop' })).toMatchObject({ suggestion: 'command' });
    const share = await refused('/api/shares', { device: 'keyed', expiresat: '2099-01-01T00:00:00Z' });
    expect(share).toMatchObject({ key: 'expiresat', suggestion: 'expiresAt' });
    const hook = await server.admin('/api/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hook' } });
    expect(hook.status).toBe(201);
    expect(await refused(`/api/sinks/${hook.body.id}/replay`, { id: [] })).toMatchObject({ suggestion: 'ids' });
    const login = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tokn: server.adminToken }),
    });
    expect([login.status, await login.json()]).toEqual([
      400,
      expect.objectContaining({ code: 'INVALID_OPTION', key: 'tokn', suggestion: 'token' }),
    ]);
    // A route whose JSON schema refuses extra keys answers the same (the retention body).
    const retention = await server.admin('/api/orgs/acme/retention', { method: 'PUT', body: { dayz: 30 } });
    expect([retention.status, retention.body]).toEqual([
      400,
      expect.objectContaining({ code: 'INVALID_OPTION', key: 'dayz', suggestion: 'days' }),
    ]);
    // A key far from every known one is named without a guess.
    const far = await refused('/api/geofences', { identifier: 'x', latitude: 1, longitude: 1, radius: 9, zzzzzzzz: 1 });
    expect(far.suggestion).toBeUndefined();
    expect(far.error).toContain('Known keys: identifier, latitude');
  });

  it("refuses a password change carrying role or orgs (a schema's extra key is refused, never dropped)", async () => {
    const made = await server.admin('/api/users', {
      method: 'POST',
      body: { name: 'vera', password: 'correct horse battery', role: 'viewer' },
    });
    expect(made.status, made.text).toBe(201);
    const logIn = (password: string) =>
      fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ user: 'vera', password }),
      });
    const session = await logIn('correct horse battery');
    expect(session.status).toBe(204);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    const change = await fetch(`${server.url}/api/users/me/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, cookie },
      body: JSON.stringify({ current: 'correct horse battery', password: 'another horse battery', role: 'owner' }),
    });
    expect([change.status, await change.json()]).toEqual([
      400,
      expect.objectContaining({ code: 'INVALID_OPTION', key: 'role' }),
    ]);
    // Nothing changed: the old password still logs in, and vera is still a viewer.
    expect((await logIn('correct horse battery')).status).toBe(204);
    expect((await server.admin('/api/users')).body).toContainEqual(
      expect.objectContaining({ name: 'vera', role: 'viewer' }),
    );
  });

  it('keeps accepting extra keys in upload bodies', async () => {
    const reply = await server.post('/locations', {
      location: [{ ...record('k2'), vendor_field: 1 }],
      device_id: 'keyed',
      loiteringdelay: 5,
    });
    expect(reply.status).toBe(200);
  });
});

describe('unknown startServer options', () => {
  it('refuses { prot: 1 } naming port, before creating anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-options-'));
    try {
      const options = { database: join(dir, 'server.db'), prot: 1 } as ServerOptions;
      await expect(startServer(options)).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        option: 'prot',
        message: 'Option prot is not a server option. Did you mean port?',
      });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
