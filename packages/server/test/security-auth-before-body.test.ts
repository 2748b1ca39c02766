import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { openRequest } from './helpers/open-request.js';

const MIB = 1024 * 1024;

describe.each(backends)('a credential is checked before the body is read, on $name (issue 45)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { requireTokens: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The first bytes of a large upload in `coding`: a device would send the rest after them. */
  const bodyStart = (coding: string): Buffer => {
    const text = JSON.stringify({ location: Array.from({ length: 2000 }, (_, i) => record(`r-${i}`)) });
    const encoded = coding === 'gzip' ? gzipSync(text) : deflateRawSync(text);
    return encoded.subarray(0, 1024);
  };
  const refusedEarly = async (path: string, headers: Record<string, string>, first: Buffer) => {
    const open = openRequest(server.url, { method: 'POST', path, headers, first, declared: MIB });
    try {
      return await open.answer;
    } finally {
      open.request.destroy();
    }
  };

  it('answers a tokenless upload 401 TOKEN_REQUIRED while its gzip or columnar body is still arriving', async () => {
    for (const coding of ['gzip', 'x-waypost-columnar']) {
      const answer = await refusedEarly(
        '/locations',
        { 'content-type': 'application/json', 'content-encoding': coding },
        bodyStart(coding === 'gzip' ? 'gzip' : 'deflate'),
      );
      expect(answer, coding).toMatchObject({ status: 401, body: { code: 'TOKEN_REQUIRED' } });
    }
    // The tracker routes and the log upload too; an org-less wrong token is refused as before.
    expect(
      await refusedEarly(
        '/owntracks',
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        bodyStart('gzip'),
      ),
      // OwnTracks loses an upload answered with a 4xx: its refusals are 503 (docs/trackers.md).
    ).toMatchObject({ status: 503, body: { code: 'TOKEN_REQUIRED' } });
    expect(
      await refusedEarly('/api/logs', { 'content-type': 'multipart/form-data; boundary=x' }, Buffer.from('--x\r\n')),
    ).toMatchObject({ status: 401, body: { code: 'TOKEN_REQUIRED' } });
  });

  it('answers an operator route without the admin credential 401 (403 for a device token) before its body', async () => {
    const json = { 'content-type': 'application/json' };
    const first = Buffer.from('{"identifier":"home","latitude":52.5,');
    expect(await refusedEarly('/api/geofences', json, first)).toMatchObject({
      status: 401,
      body: { code: 'ADMIN_TOKEN_REQUIRED' },
    });
    expect(
      await refusedEarly('/api/geofences', { ...json, authorization: 'Bearer not-this-servers-token' }, first),
    ).toMatchObject({ status: 401, body: { code: 'WRONG_TOKEN' } });
    const device = await server.post('/auth/register', { device_id: 'gate-phone' });
    expect(device.status).toBe(200);
    expect(
      await refusedEarly('/api/geofences', { ...json, authorization: `Bearer ${device.body.accessToken}` }, first),
    ).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
  });

  it('reads the body of an upload whose device token is valid, and stores it', async () => {
    const device = await server.post('/auth/register', { device_id: 'gate-walker' });
    const body = gzipSync(JSON.stringify({ location: [record('gate-1'), record('gate-2')] }));
    const open = openRequest(server.url, {
      method: 'POST',
      path: '/locations',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${device.body.accessToken}`,
      },
      first: body.subarray(0, 10),
      declared: body.length,
    });
    open.request.end(body.subarray(10));
    expect(await open.answer).toMatchObject({ status: 200, body: { stored: 2 } });
  });
});
