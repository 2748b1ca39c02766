import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

/** The answer to a request whose body is still being sent, and the request, to finish or drop. */
interface Open {
  request: ClientRequest;
  answer: Promise<{ status: number; body: Json }>;
}

/**
 * Sends the headers and the first `sent` bytes of a body of `declared` bytes, and leaves the body
 * open: an answer can only come from a server that decided without the rest of the body.
 */
function openUpload(url: string, path: string, headers: Record<string, string>, first: Buffer, declared: number): Open {
  const request = httpRequest(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-length': String(declared) },
  });
  const answer = new Promise<{ status: number; body: Json }>((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) as Json }));
    });
    request.on('error', reject);
  });
  request.write(first);
  return { request, answer };
}

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
    const open = openUpload(server.url, path, headers, first, MIB);
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
    const open = openUpload(
      server.url,
      '/locations',
      {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${device.body.accessToken}`,
      },
      body.subarray(0, 10),
      body.length,
    );
    open.request.end(body.subarray(10));
    expect(await open.answer).toMatchObject({ status: 200, body: { stored: 2 } });
  });
});
