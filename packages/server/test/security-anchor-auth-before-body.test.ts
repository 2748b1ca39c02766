// The anchor-compatible routes that take only some callers (the admin's org tokens, a device's
// refresh, the scoped deletes) decide their caller from the headers before the body, like Waypost's
// own routes (security-auth-before-body.test.ts): a request whose body never finishes arriving
// gets its refusal at once, and a caller they take still has its body read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgToken, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { openRequest } from './helpers/open-request.js';

describe.each(backends)('the anchor routes check their caller before the body, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const refusedEarly = async (method: string, path: string, headers: Record<string, string>, first: string) => {
    const open = openRequest(server.url, {
      method,
      path,
      headers: { 'content-type': 'application/json', ...headers },
      first,
      declared: 64 * 1024,
    });
    try {
      return await open.answer;
    } finally {
      open.request.destroy();
    }
  };

  it('POST /api/site/jwt: 401 ADMIN_TOKEN_REQUIRED to nobody and to a device, while the body is arriving', async () => {
    const device = await register(server, 'acme', 'jwt-phone');
    for (const headers of [{}, { authorization: `Bearer ${device.accessToken}` }] as Record<string, string>[]) {
      expect(await refusedEarly('POST', '/api/site/jwt', headers, '{"org":"ac')).toMatchObject({
        status: 401,
        body: { code: 'ADMIN_TOKEN_REQUIRED' },
      });
    }
    // The admin's request is read to its end and answered as before.
    expect(await orgToken(server, 'acme')).toEqual(expect.any(String));
  });

  it('POST /api/refresh_token: 403 ACCESS_DENIED without a valid access token, while the body is arriving', async () => {
    for (const prefix of ['/api', '/api/jwt']) {
      for (const headers of [{}, { authorization: 'Bearer not.a.token' }] as Record<string, string>[]) {
        expect(
          await refusedEarly('POST', `${prefix}/refresh_token`, headers, '{"refresh_token":"'),
          `${prefix} ${JSON.stringify(headers)}`,
        ).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', status: 401 } });
      }
    }
    const device = await register(server, 'acme', 'refresh-phone');
    const renewed = await call(server, 'POST', '/api/refresh_token', {
      token: device.accessToken,
      body: { refresh_token: device.refreshToken },
    });
    expect(renewed.status).toBe(200);
  });

  it('a DELETE with a body: nobody gets 401 at once; an org token still deletes its device', async () => {
    for (const path of ['/api/jwt/locations?device_id=x', '/api/site/devices/x', '/api/devices/x']) {
      expect(await refusedEarly('DELETE', path, {}, '{"reason":"'), path).toMatchObject({ status: 401 });
    }
    await register(server, 'beta', 'beta-phone');
    const token = await orgToken(server, 'beta');
    const id = (
      (await call(server, 'GET', '/api/devices', { token })).body as { id: string; device_id: string }[]
    ).find((d) => d.device_id === 'beta-phone')!.id;
    // The shared admin path, with a body: the anchor's org caller, not the operator role gate's 403.
    const deleted = await call(server, 'DELETE', `/api/devices/${encodeURIComponent(id)}`, { token, body: {} });
    expect(deleted).toMatchObject({ status: 200, body: { success: true, deleted: 1 } });
  });
});
