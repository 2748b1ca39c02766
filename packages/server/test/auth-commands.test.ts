import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe.each(backends)('tokens, devices and commands on $name', (backend) => {
  let server: TestServer;
  let open: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  beforeAll(async () => {
    server = await startTestServer(backend, {
      requireTokens: true,
      accessTokenTtlSeconds: 60,
      now: () => clockMs,
    } as object);
    open = await startTestServer(backend);
  });
  afterAll(async () => {
    await server.stop();
    await open.stop();
  });

  const refresh = (body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(`${server.url}/auth/refresh`, { method: 'POST', headers: { 'content-type': type }, body });

  it('registers a device, refreshes with rotation and refuses a used or revoked refresh token', async () => {
    const registered = await server.post('/auth/register', { device_id: 'tok-1', model: 'Pixel' });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({
      deviceId: 'tok-1',
      accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refreshToken: expect.any(String),
      expires: Math.floor(clockMs / 1000) + 60,
    });
    const first = await refresh(form({ refresh_token: registered.body.refreshToken }));
    expect(first.status).toBe(200);
    const rotated = (await first.json()) as Json;
    expect(rotated).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 60,
    });
    expect(rotated.refresh_token).not.toBe(registered.body.refreshToken);
    expect((await refresh(form({ refresh_token: registered.body.refreshToken }))).status).toBe(401);
    const byJson = await refresh(JSON.stringify({ refreshToken: rotated.refresh_token }), 'application/json');
    expect(byJson.status).toBe(200);
    const next = (await byJson.json()) as Json;
    expect(await server.post('/auth/revoke', { refresh_token: next.refresh_token })).toEqual({
      status: 200,
      body: { revoked: true },
    });
    const revoked = await refresh(form({ refresh_token: next.refresh_token }));
    expect([revoked.status, ((await revoked.json()) as Json).code]).toEqual([401, 'INVALID_REFRESH_TOKEN']);
  });

  it('requires a valid, unexpired token to upload when tokens are required', async () => {
    const { body } = await server.post('/auth/register', { device_id: 'tok-2' });
    const upload = (headers: Record<string, string>) =>
      server.post('/locations', { location: record('t1'), device_id: 'someone-else' }, headers);
    expect(await upload({})).toEqual({ status: 401, body: { error: expect.any(String), code: 'TOKEN_REQUIRED' } });
    // A token that is none of this server's is said to be wrong, not missing (issue 40.8).
    expect(await upload({ authorization: 'Bearer yesterdays-key' })).toEqual({
      status: 401,
      body: {
        error: expect.stringMatching(/^The token sent is not a device access token of this server/),
        code: 'WRONG_TOKEN',
      },
    });
    expect((await upload({ authorization: 'Bearer a.b.c' })).status).toBe(401);
    expect((await upload({ authorization: `Bearer ${body.accessToken}` })).body).toEqual({
      success: true,
      stored: 1,
      duplicates: 0,
    });
    expect((await server.admin('/api/devices/tok-2/locations')).body).toHaveLength(1);
    clockMs += 61_000;
    expect(await upload({ authorization: `Bearer ${body.accessToken}` })).toEqual({
      status: 401,
      body: { error: expect.any(String), code: 'TOKEN_EXPIRED' },
    });
  });

  it('lets a device token upload but not read the admin API', async () => {
    const { body } = await server.post('/auth/register', { device_id: 'tok-3' });
    const asDevice = await server.admin('/api/devices', { token: body.accessToken });
    expect([asDevice.status, asDevice.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await server.admin('/api/devices', { token: 'wrong' })).status).toBe(401);
    expect((await fetch(`${server.url}/api/devices`)).status).toBe(401);
    const upload = await server.post(
      '/api/locations',
      { location: record('t3') },
      { authorization: `Bearer ${body.accessToken}` },
    );
    expect(upload.status).toBe(200);
  });

  it('answers 410 with stop to a deleted device and 403 with stop to a blocked one, storing nothing', async () => {
    await open.post('/locations', { location: record('first'), device_id: 'gone' });
    await open.post('/locations', { location: record('first'), device_id: 'blocked' });
    expect((await open.admin('/api/devices/gone', { method: 'DELETE' })).body.status).toBe('deleted');
    expect((await open.admin('/api/devices/blocked/block', { method: 'POST' })).body.status).toBe('blocked');
    const gone = await open.post('/locations', { location: record('later'), device_id: 'gone' });
    expect(gone).toEqual({
      status: 410,
      body: { error: expect.any(String), code: 'DEVICE_DELETED', background_geolocation: ['stop'] },
    });
    const blocked = await open.post('/locations', { location: record('later'), device_id: 'blocked' });
    expect(blocked).toEqual({
      status: 403,
      body: { error: expect.any(String), code: 'DEVICE_BLOCKED', background_geolocation: ['stop'] },
    });
    expect((await open.admin('/api/devices/blocked/locations')).body).toHaveLength(1);
    await open.admin('/api/devices/blocked/unblock', { method: 'POST' });
    expect((await open.post('/locations', { location: record('later'), device_id: 'blocked' })).body.stored).toBe(1);
    const devices = (await open.admin('/api/devices')).body as { id: string; status: string }[];
    expect(devices.filter((d) => ['gone', 'blocked'].includes(d.id)).map((d) => d.status)).toEqual([
      'active',
      'deleted',
    ]);
  });

  it('delivers queued commands on the next ingest reply exactly once, in order', async () => {
    await open.post('/locations', { location: record('c0'), device_id: 'cmd' });
    const queued = await open.admin('/api/devices/cmd/commands', {
      method: 'POST',
      body: { command: ['setConfig', { http: { autoSync: false } }] },
    });
    expect(queued.status).toBe(201);
    await open.admin('/api/devices/cmd/commands', { method: 'POST', body: { command: 'start' } });
    expect(
      (await open.admin('/api/devices/cmd/commands', { method: 'POST', body: { command: 'explode' } })).body.code,
    ).toBe('UNKNOWN_COMMAND');
    expect(
      (await open.admin('/api/devices/nobody/commands', { method: 'POST', body: { command: 'stop' } })).status,
    ).toBe(404);
    const reply = await open.post('/locations', { location: record('c1'), device_id: 'cmd' });
    expect(reply.body).toEqual({
      success: true,
      stored: 1,
      duplicates: 0,
      background_geolocation: [['setConfig', { http: { autoSync: false } }], ['start']],
    });
    const again = await open.post('/locations', { location: record('c2'), device_id: 'cmd' });
    expect(again.body).not.toHaveProperty('background_geolocation');
    const list = (await open.admin('/api/devices/cmd/commands')).body;
    expect(list.map((c: { status: string }) => c.status)).toEqual(['delivered', 'delivered']);
  });

  it('does not mark a command delivered when the request carrying it is rejected', async () => {
    await open.post('/locations', { location: record('k0'), device_id: 'cmd-keep' });
    await open.admin('/api/devices/cmd-keep/commands', { method: 'POST', body: { command: 'stop' } });
    const tooDeep = {
      location: record('k1'),
      device_id: 'cmd-keep',
      extras: JSON.parse('['.repeat(40) + ']'.repeat(40)),
    };
    expect((await open.post('/locations', tooDeep)).status).toBe(400);
    expect((await open.admin('/api/devices/cmd-keep/commands')).body[0].status).toBe('pending');
    expect(
      (await open.post('/locations', { location: record('k1'), device_id: 'cmd-keep' })).body.background_geolocation,
    ).toEqual([['stop']]);
  });
});
