// A revoked token (issue 31): revoking a device's tokens refuses its access tokens at once (401
// TOKEN_REVOKED), and the server names the device failing/auth-refused from what it saw itself,
// keeping the refused request's health report beside it, marked as that request's. Nobody without
// a genuine token of the device can write anything for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHealthHeader } from '@waypost/sdk/internal';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const START = Date.UTC(2026, 10, 26, 8);

describe.each(backends)('auth refused, on $name', (backend) => {
  let server: TestServer;
  let now = START;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => now, silentAfterSeconds: 600, accessTokenTtlSeconds: 3600 });
  });
  afterAll(() => server.stop());

  const health = async (id: string): Promise<Json> => (await server.admin(`/api/devices/${id}/health`)).body;
  const register = async (id: string): Promise<string> => {
    const answer = await server.admin('/auth/register', { method: 'POST', body: { device_id: id } });
    expect(answer.status).toBe(200);
    return answer.body.accessToken as string;
  };
  const report = (queued: number) =>
    formatHealthHeader({ version: '0.1.0', queued, oldestAge: 120, network: 'wifi', tracking: true });
  const upload = (token: string, uuid: string, headers: Record<string, string> = {}) =>
    server.post(
      '/locations',
      { location: record(uuid), device_id: 'ignored-when-a-token-names-the-device' },
      { authorization: `Bearer ${token}`, ...headers },
    );

  it('refuses a log upload with a revoked token too, storing no log', async () => {
    const id = `${backend.name}-revoked-log`;
    const token = await register(id);
    const sendLog = () => {
      const form = new FormData();
      form.append('log', new Blob(['a line of the device log\n']), 'log.txt');
      return fetch(`${server.url}/api/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    };
    expect((await sendLog()).status).toBe(201);
    now += 1000;
    expect((await server.admin(`/api/devices/${id}/tokens/revoke`, { method: 'POST' })).status).toBe(200);
    now += 1000;
    const refused = await sendLog();
    expect([refused.status, ((await refused.json()) as Json).code]).toEqual([401, 'TOKEN_REVOKED']);
    const logs = ((await server.admin('/api/logs')).body as Json[]).filter((log) => log.deviceId === id);
    expect(logs).toHaveLength(1);
  });

  it('refuses a revoked token at once and names the device from the refused request', async () => {
    const id = `${backend.name}-revoked`;
    const token = await register(id);
    expect((await upload(token, 'r1', { 'waypost-health': report(0) })).status).toBe(200);
    expect(await health(id)).toMatchObject({ state: 'live', authRefused: null });

    now += 1000;
    expect((await server.admin(`/api/devices/${id}/tokens/revoke`, { method: 'POST' })).status).toBe(200);
    now += 60_000;
    const refused = await upload(token, 'r2', { 'waypost-health': report(42) });
    expect(refused).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });

    const answer = await health(id);
    expect(answer).toMatchObject({
      state: 'failing',
      cause: 'auth-refused',
      inferred: false,
      since: new Date(now).toISOString(),
      authRefused: { code: 'TOKEN_REVOKED', at: new Date(now).toISOString(), report: { queued: 42 } },
    });
    // The device's own report (last accepted) is untouched by the refused request's.
    expect(answer.report).toMatchObject({ queued: 0 });
    // Nothing of the refused request was stored.
    expect((await server.admin(`/api/devices/${id}`)).body).toMatchObject({ records: 1 });
    expect(answer.history[0]).toMatchObject({ state: 'failing', cause: 'auth-refused', inferred: false });

    // Long after, still refused while it keeps trying: certain. Once it stops trying, inferred.
    now += 30 * 60_000;
    expect((await upload(token, 'r3')).status).toBe(401);
    expect(await health(id)).toMatchObject({ cause: 'auth-refused', inferred: false, since: answer.since });
    now += 20 * 60_000;
    expect(await health(id)).toMatchObject({ cause: 'auth-refused', inferred: true });

    // Registered again (the admin): its next accepted upload ends the refusal.
    now += 2000;
    const fresh = await register(id);
    expect((await upload(fresh, 'r4', { 'waypost-health': report(0) })).status).toBe(200);
    expect(await health(id)).toMatchObject({ state: 'live', cause: 'reporting', inferred: false });
  });

  it('notes an expired token only when it is genuine, at most once a minute', async () => {
    const id = `${backend.name}-expired`;
    const token = await register(id);
    expect((await upload(token, 'e1')).status).toBe(200);
    now += 3601_000;
    expect((await upload(token, 'e2', { 'waypost-health': report(7) })).body).toMatchObject({ code: 'TOKEN_EXPIRED' });
    const first = await health(id);
    expect(first).toMatchObject({
      cause: 'auth-refused',
      authRefused: { code: 'TOKEN_EXPIRED', report: { queued: 7 } },
    });
    // A second refused request within the minute writes nothing (its report is not kept).
    now += 10_000;
    await upload(token, 'e3', { 'waypost-health': report(8) });
    expect((await health(id)).authRefused).toEqual(first.authRefused);

    // A forged token naming another device writes nothing for it: the signature is checked first.
    const victim = `${backend.name}-victim`;
    expect((await server.post('/locations', { location: record('v1'), device_id: victim })).status).toBe(200);
    const [head, , signature] = token.split('.');
    const claims = Buffer.from(JSON.stringify({ sub: victim, iat: 1, exp: 2 })).toString('base64url');
    const forged = await upload(`${head}.${claims}.${signature}`, 'f1', { 'waypost-health': report(99) });
    expect(forged.status).toBe(401);
    expect(await health(victim)).toMatchObject({ state: 'live', authRefused: null });
    // And no device is created by a refused request.
    expect((await server.admin('/api/devices/nobody-here/health')).status).toBe(404);
  });
});
