import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

/** Resolves when the server closes the socket, with what it had sent (bounded by the test's timeout). */
const closed = (socket: Socket): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });

const metric = async (server: TestServer, name: string): Promise<number> => {
  const text = await (
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
  ).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
};

describe.each(backends)('rate limits on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  beforeAll(async () => {
    // 1 request/s per device (a burst of 20), 5/s per address (a burst of 100), on the injected clock.
    server = await startTestServer(backend, { rateLimit: 1, rateLimitPerAddress: 5, now: () => clockMs });
  });
  afterAll(async () => server.stop());

  const upload = (deviceId: string, uuid: string) =>
    fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: record(uuid), device_id: deviceId }),
    });

  it('answers 429 with Retry-After once a device has spent its burst, stores nothing then, and recovers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await upload('busy', `b${i}`)).status);
    expect(statuses).toEqual(Array(20).fill(200));
    const limited = await upload('busy', 'b-over');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Another device is not affected.
    expect((await upload('calm', 'c1')).status).toBe(200);

    clockMs += 999;
    expect((await upload('busy', 'b-early')).status).toBe(429);
    clockMs += 1;
    expect((await upload('busy', 'b-later')).status).toBe(200);
    const rows = (await server.admin('/api/devices/busy/locations')).body as { uuid: string }[];
    expect(rows.map((r) => r.uuid)).not.toContain('b-over');
    expect(rows.map((r) => r.uuid)).toContain('b-later');
    expect(await metric(server, 'waypost_rate_limited_total{scope="device"}')).toBe(2);
  });

  it('limits one client address across devices (429 + Retry-After), and /health always answers', async () => {
    clockMs += 60_000;
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push((await upload(`many-${i}`, `m${i}`)).status);
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(200));
    expect(statuses[100]).toBe(429);
    const limited = await fetch(`${server.url}/api/devices`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    clockMs += 1000;
    expect((await upload('many-0', 'm-after')).status).toBe(200);
    expect(await metric(server, 'waypost_rate_limited_total{scope="address"}')).toBeGreaterThanOrEqual(2);
  });
});

describe('slow clients and connection flooding', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!, { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 4 });
  });
  afterAll(async () => server.stop());

  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });

  it('drops a client that sends its headers too slowly (408), and one whose body never ends', async () => {
    const slowHeaders = await open();
    const slowHeadersClosed = closed(slowHeaders);
    slowHeaders.write('POST /locations HTTP/1.1\r\nHost: x\r\n');
    expect(await slowHeadersClosed).toMatch(/^HTTP\/1\.1 408/);

    const slowBody = await open();
    const slowBodyClosed = closed(slowBody);
    slowBody.write(
      'POST /locations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
    );
    expect(await slowBodyClosed).toMatch(/^HTTP\/1\.1 408/);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('caps open connections: beyond the cap new ones are closed at once, and the server serves again when they go', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, open));
    const extra = await open();
    expect(await closed(extra)).toBe('');
    for (const socket of held) socket.destroy();
    let status = 0;
    // The server notices the closed sockets as the kernel reports them: retry a few times.
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = await fetch(`${server.url}/health`)
        .then((r) => r.status)
        .catch(() => 0);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
  });
});
