// Live feeds are bounded (issue 45): one user, one address, and all readers together (a share of
// maxConnections) can hold only so many GET /api/events streams open, each refusal answered with a
// stable code before anything is streamed, so a viewer cannot take the connections devices upload
// on; and /health says 503 while the server holds maxConnections connections (new ones, devices'
// included, are closed unanswered then), even when asked on a connection that was already open.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/accounts.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const PASSWORD = 'correct horse battery';

interface Feed {
  status: number;
  body: Json;
  headers: Headers;
  close(): void;
}

/** Opens GET /api/events as `auth` from `address` (X-Forwarded-For: the server trusts its proxy). */
async function openFeed(server: TestServer, auth: Record<string, string>, address: string): Promise<Feed> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/events`, {
    headers: { ...auth, 'x-forwarded-for': address },
    signal: controller.signal,
  });
  // A refused feed is a JSON answer; an open one streams until closed (its body is not read).
  const body = response.status === 200 ? null : await response.json();
  return { status: response.status, body, headers: response.headers, close: () => controller.abort() };
}

/**
 * Retries `attempt` until it gives a feed that opened. The server learns of a closed feed when its
 * connection's close arrives, which nothing here can await; bounded to a few seconds.
 */
async function untilOpen(attempt: () => Promise<Feed>): Promise<Feed> {
  for (let tries = 0; ; tries++) {
    const feed = await attempt();
    if (feed.status === 200 || tries >= 200) return feed;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(backends)('live feeds on $name', (backend) => {
  let server: TestServer;
  const cookies: Record<string, Record<string, string>> = {};
  const feeds: Feed[] = [];
  beforeAll(async () => {
    server = await startTestServer(backend, {
      trustProxy: true,
      maxConnections: 12,
      liveFeedsShare: 0.5,
      liveFeedsPerUser: 3,
      liveFeedsPerAddress: 4,
    });
    for (const name of ['ann', 'bob', 'cyd']) {
      const made = await server.admin('/api/users', {
        method: 'POST',
        body: { name, password: PASSWORD, role: 'viewer' },
      });
      expect(made.status).toBe(201);
      cookies[name] = { cookie: (await loginAs(server, name, PASSWORD)).cookie! };
    }
  });
  afterAll(async () => {
    for (const feed of feeds) feed.close();
    await server.stop();
  });
  const open = async (user: string, address: string) => {
    const feed = await openFeed(server, cookies[user]!, address);
    feeds.push(feed);
    return feed;
  };
  const refusal = (feed: Feed) => ({
    status: feed.status,
    code: feed.body?.code,
    type: feed.headers.get('content-type')?.split(';')[0],
  });

  it("refuses a user's, an address's and the server's feeds beyond their bounds, before streaming", async () => {
    for (let n = 0; n < 3; n++) expect((await open('ann', '10.0.0.1')).status).toBe(200);
    expect(refusal(await open('ann', '10.0.0.9'))).toEqual({
      status: 429,
      code: 'LIVE_FEEDS_PER_USER',
      type: 'application/json',
    });
    expect((await open('bob', '10.0.0.1')).status).toBe(200);
    expect(refusal(await open('bob', '10.0.0.1'))).toEqual({
      status: 429,
      code: 'LIVE_FEEDS_PER_ADDRESS',
      type: 'application/json',
    });
    for (let n = 0; n < 2; n++) expect((await open('bob', '10.0.0.2')).status).toBe(200);
    // Six feeds: half of maxConnections. Nobody gets another, the admin token included.
    const full = await open('cyd', '10.0.0.3');
    expect(refusal(full)).toEqual({ status: 503, code: 'LIVE_FEEDS_FULL', type: 'application/json' });
    expect(full.headers.get('retry-after')).toBe('30');
    const admin = await openFeed(server, { authorization: `Bearer ${server.adminToken}` }, '10.0.0.4');
    expect(refusal(admin)).toMatchObject({ status: 503, code: 'LIVE_FEEDS_FULL' });

    // Devices still connect: an upload on a connection of its own is answered.
    const agent = new http.Agent({ keepAlive: false });
    const upload = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${server.url}/locations`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify({ location: record('fresh-1'), device_id: 'van-1' }));
    });
    expect(upload).toBe(200);

    // A feed closed gives its place back.
    feeds[0]!.close();
    expect((await untilOpen(() => open('cyd', '10.0.0.3'))).status).toBe(200);
  });
});

describe.each(backends)('live feeds with the default bounds on $name', (backend) => {
  let server: TestServer;
  const feeds: Feed[] = [];
  beforeAll(async () => {
    server = await startTestServer(backend, { maxConnections: 12 });
  });
  afterAll(async () => {
    for (const feed of feeds) feed.close();
    await server.stop();
  });

  it('keeps half the connections for devices: one reader cannot take them all', async () => {
    const auth = { authorization: `Bearer ${server.adminToken}` };
    for (let n = 0; n < 6; n++) {
      const feed = await openFeed(server, auth, '127.0.0.1');
      feeds.push(feed);
      expect(feed.status).toBe(200);
    }
    const seventh = await openFeed(server, auth, '127.0.0.1');
    feeds.push(seventh);
    expect({ status: seventh.status, code: seventh.body?.code }).toEqual({ status: 503, code: 'LIVE_FEEDS_FULL' });
  });
});

describe.each(backends)('/health at the connection limit on $name', (backend) => {
  let server: TestServer;
  const sockets: net.Socket[] = [];
  const checker = new http.Agent({ keepAlive: true, maxSockets: 1 });
  beforeAll(async () => {
    server = await startTestServer(backend, { maxConnections: 6 });
  });
  afterAll(async () => {
    checker.destroy();
    for (const socket of sockets) socket.destroy();
    await server.stop();
  });

  /** GET /health on the load balancer's kept connection. */
  const health = () =>
    new Promise<{ status: number; body: Json }>((resolve, reject) => {
      http
        .get(`${server.url}/health`, { agent: checker }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        })
        .on('error', reject);
    });
  /** A new connection asking /health: true when answered, false when the server closed it unanswered. */
  const connect = () =>
    new Promise<boolean>((resolve) => {
      const { port } = new URL(server.url);
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /health HTTP/1.1\r\nHost: waypost\r\n\r\n'),
      );
      sockets.push(socket);
      socket.once('data', () => resolve(true));
      socket.once('close', () => resolve(false));
      socket.on('error', () => resolve(false));
    });

  it('answers 503 while every connection is taken, and 200 again once one is free', async () => {
    expect(await health()).toEqual({ status: 200, body: { ok: true } });
    let answered = 0;
    while (await connect()) answered += 1;
    expect(answered).toBeLessThan(6); // the checker's connection is one of the six
    expect(await health()).toEqual({ status: 503, body: { ok: false, connectionsFull: true } });
    sockets.shift()!.destroy();
    for (let tries = 0; (await health()).status !== 200 && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await health()).toEqual({ status: 200, body: { ok: true } });
  });
});
