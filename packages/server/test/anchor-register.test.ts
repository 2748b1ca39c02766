import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgToken, regData, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const TTL = 600;
const START = Date.UTC(2026, 10, 22, 12);

describe.each(backends)("the anchor's registration, refresh and upload answers on $name", (backend) => {
  let server: TestServer;
  let now = START;
  beforeAll(async () => {
    server = await startTestServer(backend, { accessTokenTtlSeconds: TTL, now: () => now });
  });
  afterAll(async () => server.stop());

  const upload = (path: string, token: string | undefined, body: unknown) =>
    call(server, 'POST', path, { token, body });

  it('registers with org and device info and uploads with the token on every anchor upload path, once per uuid', async () => {
    const tokens = await register(server, 'acme', 'phone-1');
    expect(tokens).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expires: Math.floor(now / 1000) + TTL,
    });
    for (const path of ['/api/locations', '/api/jwt/locations', '/api/locations/acme', '/api/jwt/locations/acme']) {
      const reply = await upload(path, tokens.accessToken, { location: [record(`${path}-1`), record(`${path}-2`)] });
      expect(reply).toMatchObject({ status: 200, body: { success: true, stored: 2, duplicates: 0 } });
    }
    const again = await upload('/api/jwt/locations', tokens.accessToken, [{ location: record('/api/locations-1') }]);
    expect(again.body).toEqual({ success: true, stored: 0, duplicates: 1 });
    const device = await server.admin('/api/devices/phone-1');
    expect(device.body).toMatchObject({ id: 'phone-1', model: 'iPhone10,4(x86_64)', records: 8, duplicates: 1 });
  });

  it("refuses a registration without org or device info with the anchor's words, as a 400", async () => {
    const noOrg = await call(server, 'POST', '/api/register', { body: { ...regData('', 'x'), org: undefined } });
    expect(noOrg).toMatchObject({
      status: 400,
      body: { message: 'Organization identifier empty', code: 'ORG_MISSING' },
    });
    const noDevice = await call(server, 'POST', '/api/jwt/register', { body: { org: 'acme' } });
    expect(noDevice).toMatchObject({
      status: 400,
      body: { message: 'Device info is missing', code: 'DEVICE_INFO_MISSING' },
    });
    const wrongType = await call(server, 'POST', '/api/register', { body: { ...regData('acme', 'x'), uuid: 5 } });
    expect(wrongType).toMatchObject({ status: 400, body: { code: 'INVALID_BODY' } });
  });

  it('never hands an existing device to a second registration that cannot prove it holds its token', async () => {
    const first = await register(server, 'acme', 'shared');
    const stranger = await register(server, 'acme', 'shared');
    await upload('/api/locations', first.accessToken, { location: record('mine') });
    await upload('/api/locations', stranger.accessToken, { location: record('theirs') });
    expect((await server.admin('/api/devices/shared/locations')).body.map((r: { uuid: string }) => r.uuid)).toEqual([
      'mine',
    ]);
    expect((await server.admin('/api/devices/shared~2/locations')).body.map((r: { uuid: string }) => r.uuid)).toEqual([
      'theirs',
    ]);
    // The device itself (its token, even expired) and the admin get the same device back.
    now += (TTL + 1) * 1000;
    const back = await register(server, 'acme', 'shared', first.accessToken);
    const byAdmin = await register(server, 'acme', 'shared', server.adminToken);
    for (const tokens of [back, byAdmin]) {
      await upload('/api/locations', tokens.accessToken, { location: record(`again-${tokens.refreshToken}`) });
    }
    expect((await server.admin('/api/devices/shared')).body.records).toBe(3);
    expect((await server.admin('/api/devices/shared~2')).body.records).toBe(1);
  });

  it('answers an expired token with 401 and refreshes by the Bearer access token, rotating the refresh token', async () => {
    const tokens = await register(server, 'acme', 'phone-exp');
    now += (TTL + 60) * 1000;
    const expired = await upload('/api/jwt/locations', tokens.accessToken, { location: record('late') });
    expect(expired).toMatchObject({ status: 401, body: { code: 'TOKEN_EXPIRED' } });

    const refreshed = await call(server, 'GET', '/api/refresh_token', { token: tokens.accessToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expires: Math.floor(now / 1000) + TTL,
    });
    expect(await upload('/api/jwt/locations', refreshed.body.accessToken, { location: record('late') })).toMatchObject({
      status: 200,
      body: { stored: 1 },
    });

    // The SDK's way: a form POST with the refresh token, Bearer the access token. A spent one is refused.
    const form = (token: string, refreshToken: string) =>
      fetch(`${server.url}/api/jwt/refresh_token`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ refresh_token: refreshToken }).toString(),
      });
    const rotated = await form(refreshed.body.accessToken, refreshed.body.refreshToken);
    expect(rotated.status).toBe(200);
    expect((await form(refreshed.body.accessToken, refreshed.body.refreshToken)).status).toBe(401);

    const wrong = await call(server, 'GET', '/api/jwt/refresh_token', { token: '!!' });
    expect(wrong).toMatchObject({ status: 403, body: { status: 401 } });
    // Beyond the refresh-token lifetime an old access token refreshes nothing.
    now += 31 * 24 * 3600 * 1000;
    expect((await call(server, 'GET', '/api/refresh_token', { token: tokens.accessToken })).status).toBe(403);
  });

  it("keeps a device's org in the tokens Waypost's own /auth/refresh issues", async () => {
    const tokens = await register(server, 'keepers', 'keeper');
    const form = new URLSearchParams({ refresh_token: tokens.refreshToken }).toString();
    const refreshed = await fetch(`${server.url}/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(refreshed.status).toBe(200);
    const { access_token: accessToken } = (await refreshed.json()) as { access_token: string };
    const devices = await call(server, 'GET', '/api/devices', { token: accessToken });
    expect(devices.body).toEqual([expect.objectContaining({ id: 'keeper', company_token: 'keepers' })]);
  });

  it('lets a chain of access-token-only refreshes last no longer than a refresh token, and ends it on revocation', async () => {
    const DAY = 24 * 3600 * 1000;
    const first = await register(server, 'acme', 'chain-phone');
    now += 20 * DAY;
    const second = await call(server, 'GET', '/api/refresh_token', { token: first.accessToken });
    expect(second.status).toBe(200);
    now += 15 * DAY; // 35 days since registration: past the 30-day refresh lifetime
    expect(await call(server, 'GET', '/api/refresh_token', { token: second.body.accessToken })).toMatchObject({
      status: 403,
      body: { status: 401 },
    });
    // A new registration starts a new chain; the admin revoking the device's tokens ends it.
    const third = await register(server, 'acme', 'chain-phone', server.adminToken);
    expect((await call(server, 'GET', '/api/refresh_token', { token: third.accessToken })).status).toBe(200);
    now += 1000;
    await server.admin('/api/devices/chain-phone/tokens/revoke', { method: 'POST' });
    expect((await call(server, 'GET', '/api/refresh_token', { token: third.accessToken })).status).toBe(403);
  });

  it('answers a bad token 401, no token on /api/jwt 401, and the offline DUMMY_TOKEN 406', async () => {
    const forged = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect((await upload('/api/jwt/locations', forged, { location: record('f') })).status).toBe(401);
    expect((await upload('/api/locations', forged, { location: record('f'), device_id: 'x' })).status).toBe(401);
    expect((await upload('/api/jwt/locations', undefined, { location: record('f'), device_id: 'x' })).status).toBe(401);
    expect((await upload('/api/locations', 'DUMMY_TOKEN', { location: record('f') })).status).toBe(406);
  });

  it('stops a deleted device with 410 ["stop"] on upload and on refresh', async () => {
    const tokens = await register(server, 'gone-org', 'gone-phone');
    await upload('/api/locations', tokens.accessToken, { location: record('before') });
    const deleted = await call(server, 'DELETE', '/api/site/devices/gone-phone', {
      token: await orgToken(server, 'gone-org'),
    });
    expect(deleted).toMatchObject({ status: 200, body: { success: true, deleted: 1 } });
    const after = await upload('/api/locations', tokens.accessToken, { location: record('after') });
    expect(after).toMatchObject({ status: 410, body: { code: 'DEVICE_DELETED', background_geolocation: ['stop'] } });
    const refresh = await call(server, 'POST', '/api/refresh_token', { token: tokens.accessToken });
    expect(refresh).toMatchObject({ status: 410, body: { background_geolocation: ['stop'] } });
    expect((await server.admin('/api/devices/gone-phone')).body).toMatchObject({ status: 'deleted', records: 0 });
  });

  it("answers a banned org's devices 403 with the anchor's command list, and lets them back in when unbanned", async () => {
    const tokens = await register(server, 'spammer', 'spam-phone');
    expect((await server.admin('/api/orgs/spammer/ban', { method: 'POST' })).body).toMatchObject({ status: 'banned' });
    const refused = await upload('/api/locations', tokens.accessToken, { location: record('spam') });
    expect(refused).toMatchObject({
      status: 403,
      body: {
        code: 'BANNED',
        background_geolocation: [['setConfig', { maxRecordsToPersist: 0 }], ['stop'], ['ban', expect.any(String)]],
      },
    });
    const registration = await call(server, 'POST', '/api/register', { body: regData('spammer', 'other') });
    expect(registration).toMatchObject({ status: 403, body: { code: 'BANNED' } });
    const tokenless = await upload('/api/site/locations', undefined, {
      location: record('s2'),
      company_token: 'spammer',
      device: { uuid: 'z' },
    });
    expect(tokenless.status).toBe(403);
    await server.admin('/api/orgs/spammer/unban', { method: 'POST' });
    expect((await upload('/api/locations', tokens.accessToken, { location: record('spam') })).status).toBe(200);
    expect((await server.admin('/api/orgs/nobody/ban', { method: 'POST' })).status).toBe(404);
  });

  it('takes tokenless uploads into the org the body or path names, one device per (org, uuid)', async () => {
    const site = (path: string, body: unknown) => upload(path, undefined, body);
    expect(
      (
        await site('/api/site/locations', {
          location: record('s1'),
          device: { uuid: 'walker', model: 'Pixel' },
          company_token: 'hikers',
        })
      ).status,
    ).toBe(200);
    expect((await site('/api/site/locations/hikers', { location: [record('s2')], uuid: 'walker' })).status).toBe(200);
    expect((await site('/locations/hikers', [{ location: record('s3'), device: { uuid: 'walker' } }])).status).toBe(
      200,
    );
    expect(
      (
        await site('/api/site/locations', [
          { location: record('s4'), device: { uuid: 'walker', company_token: 'climbers' } },
        ])
      ).status,
    ).toBe(200);
    const hikers = await call(server, 'GET', '/api/site/devices', { token: await orgToken(server, 'hikers') });
    expect(hikers.body).toEqual([
      expect.objectContaining({ id: 'walker', device_id: 'walker', device_model: 'Pixel', company_token: 'hikers' }),
    ]);
    expect((await server.admin('/api/devices/walker')).body.records).toBe(3);
    const climbers = await call(server, 'GET', '/api/site/devices', { token: await orgToken(server, 'climbers') });
    expect(climbers.body).toEqual([
      expect.objectContaining({ id: 'walker~2', device_id: 'walker', company_token: 'climbers' }),
    ]);
    expect((await site('/api/site/locations', { location: record('s5') })).body.code).toBe('NO_DEVICE');
    // A bad record is quarantined for its device (issue 19): the request succeeds, nothing is stored.
    const bad = await site('/api/site/locations/ghosts', {
      location: { ...record('s6'), coords: 'here' },
      uuid: 'ghost',
    });
    expect(bad).toMatchObject({
      status: 200,
      body: { stored: 0, quarantinedRecords: [{ uuid: 's6', code: 'INVALID_TYPE' }] },
    });
    const long = await site('/api/site/locations', {
      location: record('s7'),
      uuid: 'x'.repeat(5000),
      company_token: 'hikers',
    });
    expect(long).toMatchObject({ status: 400, body: { code: 'INVALID_DEVICE_ID' } });
  });
});

describe.each(backends)("the anchor's registration under the server's registration mode on $name", (backend) => {
  it('takes new devices with the enrollment secret only in mode secret, and from the admin only in mode admin', async () => {
    const secret = await startTestServer(backend, { registration: 'secret', registrationSecret: 'enrol-me' });
    const closed = await startTestServer(backend, { registration: 'admin' });
    try {
      const body = regData('acme', 'new-phone');
      expect(await call(secret, 'POST', '/api/register', { body })).toMatchObject({
        status: 401,
        body: { code: 'REGISTRATION_SECRET_REQUIRED' },
      });
      const enrolled = await call(secret, 'POST', '/api/register', {
        body,
        headers: { 'x-registration-secret': 'enrol-me' },
      });
      expect(enrolled.status).toBe(200);
      expect(await call(closed, 'POST', '/api/register', { body })).toMatchObject({
        status: 401,
        body: { code: 'REGISTRATION_CLOSED' },
      });
      expect((await call(closed, 'POST', '/api/register', { body, token: closed.adminToken })).status).toBe(200);
      // The device itself may come back for new tokens, with its own (even expired) access token.
      const again = await call(secret, 'POST', '/api/register', { body, token: enrolled.body.accessToken });
      expect(again.status).toBe(200);
      expect((await secret.admin('/api/devices')).body.map((d: { id: string }) => d.id)).toEqual(['new-phone']);
    } finally {
      await secret.stop();
      await closed.stop();
    }
  });
});
