// RFC 7694: a server says which request content codings it decodes with Accept-Encoding on its
// responses. Waypost's ingest answers say it (errors included), so that a client compresses only
// after being told; the codings it names are the ones it really takes.
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { encodeColumnar } from '@waypost/sdk/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

const body = (uuid: string) =>
  JSON.stringify({
    device_id: 'codings-1',
    location: { uuid, timestamp: new Date().toISOString(), coords: { latitude: 45.5, longitude: -73.56 } },
  });
const ENCODERS: Record<string, (data: Buffer) => Buffer> = {
  gzip: (data) => gzipSync(data),
  deflate: (data) => deflateSync(data),
  br: (data) => brotliCompressSync(data),
  'x-waypost-columnar': (data) => deflateRawSync(encodeColumnar(data.toString(), 1)!),
  'x-waypost-columnar-2': (data) => deflateRawSync(encodeColumnar(data.toString(), 2)!),
  'x-waypost-columnar-3': (data) => deflateRawSync(encodeColumnar(data.toString(), 3)!),
};

describe('ingest advertises the request codings it accepts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
  });
  afterAll(() => server?.stop());

  const upload = (path: string, payload: Buffer, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
    });

  it('on accepted and refused uploads of every upload route, and nowhere else', async () => {
    const ok = await upload('/locations', Buffer.from(body('c-1')));
    expect(ok.status).toBe(200);
    const advertised = ok.headers.get('accept-encoding');
    expect(advertised).toBe('gzip, deflate, br, x-waypost-columnar, x-waypost-columnar-2, x-waypost-columnar-3');
    const refused = await upload('/locations', Buffer.from('{"location": '));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('accept-encoding')).toBe(advertised);
    const anchor = await upload('/api/locations', Buffer.from(body('c-2')));
    expect(anchor.headers.get('accept-encoding')).toBe(advertised);
    const health = await fetch(`${server.url}/health`);
    expect(health.headers.get('accept-encoding')).toBeNull();
  });

  it('takes every coding it advertises', async () => {
    const advertised = (await upload('/locations', Buffer.from(body('c-3')))).headers.get('accept-encoding')!;
    for (const coding of advertised.split(',').map((c) => c.trim())) {
      const response = await upload('/locations', ENCODERS[coding]!(Buffer.from(body(`c-${coding}`))), {
        'content-encoding': coding,
      });
      expect(await response.json(), coding).toMatchObject({ stored: 1 });
    }
  });
});
