import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe.each(backends)('registration and refresh-token reuse on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  beforeAll(async () => {
    server = await startTestServer(backend, { requireTokens: true, now: () => clockMs });
  });
  afterAll(async () => server.stop());

  const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server.post('/auth/register', body, headers);
  const refresh = async (token: string) => {
    const response = await fetch(`${server.url}/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ refresh_token: token }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const upload = (accessToken: string, uuid: string) =>
    server.post('/locations', { location: record(uuid) }, { authorization: `Bearer ${accessToken}` });

  it('refuses to hand an existing device to a new caller (409), lets the device itself and the admin re-register', async () => {
    const owner = await register({ device_id: 'phone-1' });
    expect(owner.status).toBe(200);
    const thief = await register({ device_id: 'phone-1' });
    expect(thief).toMatchObject({ status: 409, body: { code: 'DEVICE_EXISTS' } });
    expect(thief.body.accessToken).toBeUndefined();
    // Other spellings of the same id are the same device.
    expect((await register({ device: { uuid: 'phone-1' } })).status).toBe(409);
    expect((await register({ uuid: 'phone-1' })).status).toBe(409);

    const self = await register({ device_id: 'phone-1' }, { authorization: `Bearer ${owner.body.accessToken}` });
    expect(self.status).toBe(200);
    const other = await register({ device_id: 'phone-2' });
    expect(
      (await register({ device_id: 'phone-1' }, { authorization: `Bearer ${other.body.accessToken}` })).status,
    ).toBe(409);
    const admin = await register({ device_id: 'phone-1' }, { authorization: `Bearer ${server.adminToken}` });
    expect(admin.status).toBe(200);
    expect((await upload(owner.body.accessToken, 'own-1')).body.stored).toBe(1);
  });

  it('lets exactly one of concurrent registrations of a new id win', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => register({ device_id: 'race-new' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it('refuses an id that is not a string, too long, and a model that is too long', async () => {
    expect(await register({ device_id: { $gt: '' } })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_DEVICE_ID' },
    });
    expect(await register({ device_id: ['a'] })).toMatchObject({ status: 400, body: { code: 'INVALID_DEVICE_ID' } });
    expect(await register({ device_id: 'x'.repeat(4 * 1024 * 1024) })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_DEVICE_ID' },
    });
    expect(await register({ device_id: 'long-model', model: 'm'.repeat(4 * 1024 * 1024) })).toMatchObject({
      status: 400,
      body: { code: 'TEXT_TOO_LONG' },
    });
    const devices = (await server.admin('/api/devices')).body as { id: string }[];
    expect(devices.map((d) => d.id)).not.toContain('long-model');
  });

  it('20 concurrent refreshes with one token: exactly one winner whose tokens keep working', async () => {
    const first = await register({ device_id: 'refresh-race' });
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(first.body.refreshToken)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(19);
    const next = await refresh(winners[0]!.body.refresh_token);
    expect(next.status).toBe(200);
    expect((await upload(next.body.access_token, 'race-1')).body.stored).toBe(1);
  });

  it('a replayed refresh token revokes its whole family, the tokens that replaced it included', async () => {
    const first = await register({ device_id: 'replayed' });
    const second = await refresh(first.body.refreshToken);
    expect(second.status).toBe(200);
    clockMs += 60_000;
    const replay = await refresh(first.body.refreshToken);
    expect(replay).toMatchObject({ status: 401, body: { code: 'REFRESH_TOKEN_REUSED' } });
    expect(await refresh(second.body.refresh_token)).toMatchObject({ status: 401 });
    // The device's other registrations (other families) are untouched.
    const other = await register({ device_id: 'replayed' }, { authorization: `Bearer ${second.body.access_token}` });
    expect(other.status).toBe(200);
    expect((await refresh(other.body.refreshToken)).status).toBe(200);
  });
});

describe.each(backends)('registration modes on $name', (backend) => {
  let secret: TestServer;
  let admin: TestServer;
  beforeAll(async () => {
    secret = await startTestServer(backend, { registration: 'secret', registrationSecret: 'enrol-me' });
    admin = await startTestServer(backend, { registration: 'admin' });
  });
  afterAll(async () => {
    await secret.stop();
    await admin.stop();
  });

  it("'secret' registers new devices only for callers with the enrollment secret", async () => {
    expect(await secret.post('/auth/register', { device_id: 's1' })).toMatchObject({
      status: 401,
      body: { code: 'REGISTRATION_SECRET_REQUIRED' },
    });
    expect((await secret.post('/auth/register', { device_id: 's1' }, { 'x-registration-secret': '' })).status).toBe(
      401,
    );
    expect((await secret.post('/auth/register', { device_id: 's1' }, { 'x-registration-secret': 'nope' })).status).toBe(
      401,
    );
    expect(
      (await secret.post('/auth/register', { device_id: 's1' }, { 'x-registration-secret': 'enrol-me' })).status,
    ).toBe(200);
    // The secret does not take over an existing device either.
    expect(
      (await secret.post('/auth/register', { device_id: 's1' }, { 'x-registration-secret': 'enrol-me' })).status,
    ).toBe(409);
  });

  it("'admin' registers devices for the admin token only", async () => {
    expect(await admin.post('/auth/register', { device_id: 'a1' })).toMatchObject({
      status: 401,
      body: { code: 'REGISTRATION_CLOSED' },
    });
    const ok = await admin.post('/auth/register', { device_id: 'a1' }, { authorization: `Bearer ${admin.adminToken}` });
    expect(ok.status).toBe(200);
  });
});
