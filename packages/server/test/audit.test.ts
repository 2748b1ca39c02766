// The audit trail (issue 33), through the server's API on both databases: every operator's change
// (geofences, sinks, devices, commands, share links, retention, deletions, logins) is appended with
// who, when, from where and what, secrets redacted; a device's own writes (uploads, registrations)
// are not operator changes; the trail is readable as JSON and as formula-safe CSV, and the
// database itself refuses to change or remove a row of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';
import { rawSql } from './helpers/raw-sql.js';
import { orgToken } from './helpers/anchor.js';

// The server's clock stands still (every row's time is known), near the real one (tokens verify).
const T0 = Math.floor(Date.now() / 1000) * 1000;

describe.each(backends)('the audit trail on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => T0 });
  });
  afterAll(async () => server.stop());

  const trail = async (): Promise<Json[]> => (await server.admin('/api/audit?limit=1000')).body.entries;
  const actions = async () => (await trail()).map((e: Json) => e.action).reverse();

  it('keeps every operator change with who, when, from where, what, and the allowed fields of the body', async () => {
    const location = { uuid: 'a1', timestamp: new Date(T0).toISOString(), coords: { latitude: 1, longitude: 2 } };
    expect((await server.post('/locations', { location, device_id: 'phone-1' })).status).toBe(200);
    const geofence = { identifier: 'depot', latitude: 1, longitude: 2, radius: 100 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: geofence })).status).toBe(201);
    const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const hook = { url: 'https://user:pass@hooks.example/in', secret };
    expect((await server.admin('/api/webhooks', { method: 'POST', body: hook })).status).toBe(201);
    expect(
      (await server.admin('/api/devices/phone-1/commands', { method: 'POST', body: { command: 'start' } })).status,
    ).toBe(201);
    expect(
      (
        await server.admin('/api/shares', {
          method: 'POST',
          body: { device: 'phone-1', expiresAt: new Date(T0 + 86_400_000).toISOString() },
        })
      ).status,
    ).toBe(201);
    expect((await server.admin('/api/geofences/depot', { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await server.admin('/api/devices/phone-1', { method: 'DELETE' })).status).toBe(200);

    expect(await actions()).toEqual([
      'POST /api/geofences',
      'POST /api/webhooks',
      'POST /api/devices/:id/commands',
      'POST /api/shares',
      'DELETE /api/geofences/:identifier',
      'DELETE /api/devices/:id',
    ]);
    const entries = await trail();
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor: 'admin-token', at: new Date(T0).toISOString() });
      expect(entry.address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    const byAction = (action: string) => entries.find((e: Json) => e.action === action);
    expect(byAction('DELETE /api/devices/:id')).toMatchObject({ target: '{"id":"phone-1"}', status: 200 });
    expect(JSON.parse(byAction('POST /api/geofences').detail)).toMatchObject({ identifier: 'depot', radius: 100 });
    const webhook = byAction('POST /api/webhooks');
    // An allow-list (issue 41): the URL is the org's data and the secret a credential, neither kept.
    expect(JSON.parse(webhook.detail)).toEqual({ url: '[not kept]', secret: '[not kept]' });
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(JSON.stringify(entries)).not.toMatch(/user:pass|admin-secret/);
  });

  it('names a login, a refused login and the session that made a change; a refused change is kept with its 403', async () => {
    const before = (await trail()).length;
    const login = (token: string) =>
      fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    expect((await login('wrong-token-guess')).status).toBe(401);
    const ok = await login(server.adminToken);
    expect(ok.status).toBe(204);
    const cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
    const viaSession = await fetch(`${server.url}/api/retention/run`, {
      method: 'POST',
      headers: { cookie, origin: server.url },
    });
    expect(viaSession.status).toBe(200);
    const location = { uuid: 'o1', timestamp: new Date(T0).toISOString(), coords: { latitude: 1, longitude: 2 } };
    expect((await server.post('/api/site/locations/acme', { location: [location], uuid: 'acme-1' })).status).toBe(200);
    const org = await orgToken(server, 'acme');
    const geofence = { identifier: 'org-fence', latitude: 1, longitude: 2, radius: 10 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: geofence, token: org })).status).toBe(403);
    const entries = (await trail()).slice(0, (await trail()).length - before).reverse();
    expect(entries.map((e: Json) => [e.actor, e.action, e.status])).toEqual([
      ['anonymous', 'POST /api/session', 401],
      ['admin-session', 'POST /api/session', 204],
      ['admin-session', 'POST /api/retention/run', 200],
      ['admin-token', 'POST /api/site/jwt', 200],
      ['org:acme', 'POST /api/geofences', 403],
    ]);
    expect(JSON.stringify(entries)).not.toContain('wrong-token-guess');
    expect(JSON.stringify(entries)).not.toContain(server.adminToken);
    expect(JSON.stringify(entries)).not.toContain(org);
  });

  it("does not keep a device's own writes, nor reads", async () => {
    const before = (await trail()).length;
    const location = { uuid: 'b1', timestamp: new Date(T0).toISOString(), coords: { latitude: 1, longitude: 2 } };
    await server.post('/locations', { location, device_id: 'phone-2' });
    await server.post('/auth/register', { device_id: 'phone-3', model: 'x' });
    await server.admin('/api/devices');
    expect((await trail()).length).toBe(before);
  });

  it('is readable as CSV whose cells a spreadsheet will not run', async () => {
    const hostile = { identifier: '=HYPERLINK("http://evil")', latitude: 1, longitude: 2, radius: 50 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: hostile })).status).toBe(201);
    const csv = await server.admin('/api/audit?format=csv');
    expect(csv.text.split('\r\n')[0]).toBe('seq,at,actor,address,action,target,status,detail');
    // The hostile text sits inside a quoted JSON cell; no cell starts like a formula.
    expect(csv.text).toContain(`"{""identifier"":""=HYPERLINK(`);
    expect(csv.text).not.toMatch(/(^|,)[=+@]/m);
  });

  it('is append-only in the database itself: a row cannot be changed or removed, even behind the server', async () => {
    await expect(rawSql(server.storage, `UPDATE audit_log SET actor = 'nobody'`)).rejects.toThrow(/append-only/);
    await expect(rawSql(server.storage, `DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    expect((await trail()).length).toBeGreaterThan(0);
  });
});
