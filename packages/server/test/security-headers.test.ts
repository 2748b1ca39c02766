import { buildApp, routeSecurity } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const XSS_ID = '<img src=x onerror=alert(document.cookie)>';
/** Headers that govern documents (helmet's defaults beside the four above): pages carry them, upload answers do not. */
const PAGE_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const EXPECTED_CSP =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';worker-src 'self';" +
  "font-src 'self';" +
  "object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";

describe('security headers and HTML-free data (server side of stored XSS)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
  });
  afterAll(async () => server.stop());

  const expectSecurityHeaders = (response: Response) => {
    expect(response.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  };
  /** An upload's answer: JSON to a device, with the API set (OWASP REST) and none of the page-only headers. */
  const expectDeviceAnswerHeaders = (response: Response, what: string) => {
    expect(response.headers.get('content-security-policy'), what).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options'), what).toBe('DENY');
    expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
    for (const pageOnly of PAGE_ONLY_HEADERS) expect(response.headers.get(pageOnly), `${what}: ${pageOnly}`).toBeNull();
  };

  it('sends CSP, X-Frame-Options, nosniff and Referrer-Policy on pages, API replies, errors and 404s', async () => {
    const responses = [
      await fetch(`${server.url}/`),
      await fetch(`${server.url}/assets/app.js`),
      await fetch(`${server.url}/health`),
      await fetch(`${server.url}/api/devices`, { headers: { authorization: `Bearer ${server.adminToken}` } }),
      await fetch(`${server.url}/api/devices`),
      await fetch(`${server.url}/no/such/page`),
      // A wrong method on an upload path is no upload's answer: the not-found handler's, the page set.
      await fetch(`${server.url}/locations`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 401, 404, 405]);
    for (const response of responses) expectSecurityHeaders(response);
    // The page is a document: it keeps the headers that govern documents.
    for (const pageOnly of PAGE_ONLY_HEADERS) expect(responses[0]!.headers.get(pageOnly), pageOnly).not.toBeNull();
  });

  it('a cross-site text/plain upload (no preflight) plants nothing: 415', async () => {
    const sneaky = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ location: record('x1'), device_id: XSS_ID }),
    });
    expect(sneaky.status).toBe(415);
    expect(await sneaky.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const devices = await server.admin('/api/devices');
    expect(devices.body).toEqual([]);
  });

  it('answers uploads, refused ones included, with the API set on every upload route', async () => {
    const json = { 'content-type': 'application/json' };
    const answers: [string, Response][] = [
      [
        'stored',
        await fetch(`${server.url}/locations`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ location: record('api-1'), device_id: 'api-headers' }),
        }),
      ],
      [
        'refused type (415)',
        await fetch(`${server.url}/locations`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{}',
        }),
      ],
      [
        'no device (400)',
        await fetch(`${server.url}/api/locations`, { method: 'POST', headers: json, body: '{"location":{}}' }),
      ],
      [
        'OwnTracks',
        await fetch(`${server.url}/owntracks`, {
          method: 'POST',
          headers: { ...json, 'x-limit-u': 'api', 'x-limit-d': 'phone' },
          body: JSON.stringify({ _type: 'location', lat: 48.1, lon: 11.5, tst: Math.floor(Date.now() / 1000) }),
        }),
      ],
    ];
    expect(answers.map(([, r]) => r.status)).toEqual([200, 415, 400, 200]);
    for (const [what, response] of answers) expectDeviceAnswerHeaders(response, what);
  });

  it('serves what devices send only as JSON or plain text, never as HTML', async () => {
    const stored = await server.post('/locations', { location: record('x2'), device_id: XSS_ID, model: XSS_ID });
    expect(stored.status).toBe(200);
    const logForm = new FormData();
    logForm.set('device_id', XSS_ID);
    logForm.set('log', new Blob([`${XSS_ID}\n<script>alert(1)</script>`]), 'log.txt');
    expect((await fetch(`${server.url}/api/logs`, { method: 'POST', body: logForm })).status).toBe(201);
    const id = encodeURIComponent(XSS_ID);
    const paths = [
      '/api/devices',
      `/api/devices/${id}`,
      ...['json', 'geojson', 'gpx', 'csv'].map((format) => `/api/devices/${id}/locations?format=${format}`),
      `/api/devices/${id}/commands`,
      '/api/logs',
      '/api/logs/1',
      `/no/${id}`,
      `/api/devices/${id}/locations?format=${id}`,
    ];
    for (const path of paths) {
      const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${server.adminToken}` } });
      const type = response.headers.get('content-type') ?? '';
      expect(type, path).not.toMatch(/html/i);
      expect(response.status, path).toBeLessThan(500);
      expectSecurityHeaders(response);
    }
  });

  it('allows the configured tile host in img-src and nothing else', async () => {
    const tiles = await startTestServer(backends[0]!, { tileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' });
    try {
      const response = await fetch(`${tiles.url}/`);
      expect(response.headers.get('content-security-policy')).toContain(
        "img-src 'self' data: https://*.tile.example.org;",
      );
    } finally {
      await tiles.stop();
    }
  });

  it('lets one route relax its policy through routeSecurity, the others keep the base policy', async () => {
    const storage = await backends[0]!.create();
    const app = await buildApp({ ...storage.options, port: 0, mapStyle: null });
    try {
      // A route of its own: /track is the tracker page's (issue 12), which needs no relaxation.
      app.get(
        '/relaxed-example',
        {
          ...routeSecurity(null, {
            csp: { 'script-src': ["'self'", "'wasm-unsafe-eval'"], 'worker-src': ["'self'"] },
            crossOriginIsolated: true,
          }),
          // Every route declares who may call it and what it answers (one declaring neither does not start).
          config: { access: 'public' },
          schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
        },
        async () => ({ ok: true }),
      );
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      const track = await fetch(`http://127.0.0.1:${address.port}/relaxed-example`);
      expect(track.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(track.headers.get('content-security-policy')).toContain("worker-src 'self'");
      expect(track.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(track.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      expect(track.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      const health = await fetch(`http://127.0.0.1:${address.port}/health`);
      expect(health.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
      expect(health.headers.get('cross-origin-embedder-policy')).toBeNull();
    } finally {
      await app.close();
      await storage.drop();
    }
  });

  it('answers no CORS unless origins are configured, then only for those', async () => {
    const preflight = (url: string, origin: string) =>
      fetch(`${url}/locations`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const closed = await preflight(server.url, 'https://app.example');
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    const cors = await startTestServer(backends[0]!, { corsOrigins: ['https://app.example'] });
    try {
      const allowed = await preflight(cors.url, 'https://app.example');
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const other = await preflight(cors.url, 'https://evil.example');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // The SDK's ledger report may ride on an upload, and a page reads what the server says of
      // request codings and the ledger (issue 19, 20).
      expect(allowed.headers.get('access-control-allow-headers')).toContain('waypost-dropped');
      // docs/server.md lists the request headers a page may send (corsOrigins): exactly these.
      expect(allowed.headers.get('access-control-allow-headers')).toBe(
        'content-type, authorization, x-device-id, content-encoding, waypost-dropped, waypost-health, waypost-receipts, waypost-receipted',
      );
      const upload = await fetch(`${cors.url}/locations`, {
        method: 'POST',
        headers: { origin: 'https://app.example', 'content-type': 'application/json' },
        body: JSON.stringify({ location: [], device_id: 'cors-device' }),
      });
      expect(upload.headers.get('waypost-ledger')).toBe('1');
      // ...and whether it reads device health reports (issue 31).
      expect(upload.headers.get('waypost-health-accepted')).toBe('1');
      // ...and that it keeps each numbering of a device apart (issue 39).
      expect(upload.headers.get('waypost-ledger-epochs')).toBe('1');
      // ...and that it issues delivery receipts (issue 46).
      expect(upload.headers.get('waypost-receipts-offered')).toBe('1');
      expect(upload.headers.get('access-control-expose-headers')).toBe(
        'retry-after, accept-encoding, waypost-ledger, waypost-ledger-epochs, waypost-health-accepted, waypost-receipts-offered, waypost-receipt, waypost-receipt-key, link, waypost-next-cursor, waypost-columns-omitted',
      );
    } finally {
      await cors.stop();
    }
  });

  it('sends them on an upload answer and on the live feed, whose reply is hijacked (written raw)', async () => {
    const upload = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: record('h1'), device_id: 'headers-1' }),
    });
    expect(upload.status).toBe(200);
    expectDeviceAnswerHeaders(upload, 'upload');
    const controller = new AbortController();
    const feed = await fetch(`${server.url}/api/events`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
      signal: controller.signal,
    });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/event-stream');
    expectSecurityHeaders(feed);
    controller.abort();
  });
});
