import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const HOUR_MS = 3600 * 1000;

describe.each(backends)('dashboard sessions instead of tokens in URLs on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(backend, {
      now: () => clockMs,
      logger: true,
      logStream: { write: (line: string) => void lines.push(line) },
      trustProxy: true,
    });
  });
  afterAll(async () => server.stop());

  const login = (token: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ token }),
    });
  const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0]!;

  it('logs in with the admin token in a JSON body and gets an HttpOnly SameSite=Strict session cookie', async () => {
    expect((await login('wrong')).status).toBe(401);
    // Anything but {"token": "<string>"} is refused by the route's body schema, with no cookie.
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(5000) }, { token: null }, [server.adminToken]]) {
      const refused = await fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.json()).toMatchObject({ code: 'INVALID_BODY' });
      clockMs += 2_000; // each attempt spends a login token: let the bucket refill on the clock
    }
    const response = await login(server.adminToken);
    expect(response.status).toBe(204);
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^waypost_session=[\w-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    expect(setCookie).not.toContain(server.adminToken);

    const cookie = cookieOf(response);
    const session = await fetch(`${server.url}/api/session`, { headers: { cookie } });
    expect([session.status, await session.json()]).toEqual([200, { authenticated: true }]);
    expect((await fetch(`${server.url}/api/devices`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${server.url}/api/session`)).status).toBe(401);
  });

  it('refuses a write on the session authority from another origin, even with the cookie', async () => {
    const cookie = cookieOf(await login(server.adminToken));
    await server.post('/locations', { location: record('o-1'), device_id: 'origin-test' });
    const block = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/devices/origin-test/block`, { method: 'POST', headers: { cookie, ...headers } });
    expect((await block({ origin: 'https://evil.example' })).status).toBe(401);
    expect((await block({ 'sec-fetch-site': 'same-site' })).status).toBe(401);
    expect((await server.admin('/api/devices/origin-test')).body.status).toBe('active');
    expect((await block({ origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await server.admin('/api/devices/origin-test')).body.status).toBe('blocked');
  });

  it('marks the cookie Secure when the request came over https through a trusted proxy', async () => {
    const response = await login(server.adminToken, { 'x-forwarded-proto': 'https' });
    expect(response.headers.get('set-cookie')).toContain('Secure');
  });

  it('accepts the admin token in no URL: ?token= on the API and the live feed is a 401', async () => {
    const token = encodeURIComponent(server.adminToken);
    expect((await fetch(`${server.url}/api/devices?token=${token}`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/events?token=${token}`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/devices`, { headers: { authorization: `Bearer ${server.adminToken}` } })).status,
    ).toBe(200);
  });

  it('streams live positions to a client holding the session cookie', async () => {
    const cookie = cookieOf(await login(server.adminToken));
    const event = await new Promise<string>((resolve, reject) => {
      const url = new URL(`${server.url}/api/events`);
      const req = httpRequest(url, { headers: { cookie } }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/event-stream');
        expect(res.headers['content-security-policy']).toContain("default-src 'self'");
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          // On PostgreSQL positions come through LISTEN/NOTIFY: an earlier test's may arrive first.
          if (text.includes('"deviceId":"live"')) {
            req.destroy();
            resolve(text);
          }
        });
        void server.post('/locations', {
          location: record('live-1', 10, 20, '2024-05-01T00:00:00.000Z'),
          device_id: 'live',
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(event).toContain('"deviceId":"live"');
  });

  it('ends a session on logout and when it expires', async () => {
    const first = cookieOf(await login(server.adminToken));
    const logout = await fetch(`${server.url}/api/session`, { method: 'DELETE', headers: { cookie: first } });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/waypost_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await fetch(`${server.url}/api/devices`, { headers: { cookie: first } })).status).toBe(401);

    const second = cookieOf(await login(server.adminToken));
    clockMs += 11 * HOUR_MS;
    expect((await fetch(`${server.url}/api/devices`, { headers: { cookie: second } })).status).toBe(200);
    clockMs += 2 * HOUR_MS;
    expect((await fetch(`${server.url}/api/devices`, { headers: { cookie: second } })).status).toBe(401);
  });

  it('never writes the admin token, cookies or token-like query parameters to the request log', async () => {
    const cookie = cookieOf(await login(server.adminToken));
    await fetch(`${server.url}/api/devices?token=${server.adminToken}&refresh_token=r-secret&limit=5`, {
      headers: { cookie, authorization: `Bearer ${server.adminToken}` },
    });
    const log = lines.join('');
    expect(log).toContain('/api/devices?token=[REDACTED]&refresh_token=[REDACTED]&limit=5');
    // docs/deploying.md: two lines per request, the request and then its status and time, tied by reqId.
    const entries = log
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(
        (line) =>
          JSON.parse(line) as { reqId?: string; msg: string; req?: object; res?: object; responseTime?: number },
      );
    const incoming = entries.find((e) => e.msg === 'incoming request' && JSON.stringify(e.req).includes('limit=5'))!;
    expect(incoming.req).toMatchObject({ method: 'GET', remoteAddress: expect.any(String) });
    const completed = entries.find((e) => e.msg === 'request completed' && e.reqId === incoming.reqId);
    expect(completed).toMatchObject({ res: { statusCode: 200 }, responseTime: expect.any(Number) });
    expect(log).not.toContain(server.adminToken);
    expect(log).not.toContain('r-secret');
    expect(log).not.toContain(cookie.split('=')[1]!);
  });
});
