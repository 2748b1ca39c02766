// Large answers are compressed as the client asks (@fastify/compress); uploads and the live feed
// are left as they were. Raw bytes are read with node:http: fetch would decode them unseen.
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with these headers; the body as the server sent it. */
function raw(url: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe('response compression', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const track = Array.from({ length: 300 }, (_, i) =>
      record(`z${i}`, 48 + i / 1e4, 11, new Date(1.7e12 + i * 1000).toISOString()),
    );
    expect((await server.post('/locations', { location: track, device_id: 'zipped' })).status).toBe(200);
  });
  afterAll(async () => server.stop());

  it('sends the browser SDK bundle brotli-compressed to a client that accepts it', async () => {
    const plain = await raw(`${server.url}/sdk/waypost-browser.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(100_000);
    const br = await raw(`${server.url}/sdk/waypost-browser.js`, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it('gzips a dashboard asset and a streamed export, whole', async () => {
    const asset = await raw(`${server.url}/assets/app.js`, { 'accept-encoding': 'gzip' });
    expect([asset.status, asset.headers['content-encoding']]).toEqual([200, 'gzip']);
    const gpx = await raw(`${server.url}/api/devices/zipped/locations?format=gpx`, {
      'accept-encoding': 'gzip',
      authorization: `Bearer ${server.adminToken}`,
    });
    expect(gpx.headers['content-encoding']).toBe('gzip');
    const text = gunzipSync(gpx.body).toString('utf8');
    expect(text.match(/<trkpt /g)).toHaveLength(300);
    expect(text.trimEnd().endsWith('</gpx>')).toBe(true);
  });

  it('leaves upload answers and small answers uncompressed', async () => {
    const upload = await raw(
      `${server.url}/locations`,
      { 'accept-encoding': 'gzip, br', 'content-type': 'application/json' },
      'POST',
      JSON.stringify({ location: [record('z-up')], device_id: 'zipped' }),
    );
    expect(upload.status).toBe(200);
    expect(upload.headers['content-encoding']).toBeUndefined();
    const health = await raw(`${server.url}/health`, { 'accept-encoding': 'gzip' });
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
