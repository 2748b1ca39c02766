// Sinks cannot be aimed inside the server's network by an operator (issue 45): every spelling of
// loopback, link-local, private and unique-local addresses is refused when the sink is made,
// names are checked again at every connection (a name that came to point inside, or an allow-list
// entry the owner removed), and a sink's failure tells an operator its kind only, a viewer nothing:
// lastError is no port and status scanner. Owners and the admin token reach anywhere, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@waypost/server';
import { asSession, loginAs } from './helpers/accounts.js';
import { backends } from './helpers/backends.js';
import { record, type Json, type TestServer } from './helpers/client.js';
import { captureLog, type LogLine } from './helpers/log-lines.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const PASSWORD = 'correct horse battery';
const ADMIN = 'admin-secret';
const FENCE = { identifier: 'depot', latitude: 48, longitude: 11, radius: 100 };

/** Where an operator may not aim a sink, written as an attacker would (port: the receiver's or the server's). */
const inside = (port: number, serverPort: number): [string, string][] => [
  ['webhook', `http://127.0.0.1:${port}/hook`],
  ['webhook', `http://127.1:${port}/hook`],
  ['webhook', `http://0x7f000001:${port}/hook`],
  ['webhook', `http://2130706433:${port}/hook`],
  ['webhook', `http://0177.0.0.1:${port}/hook`],
  ['webhook', `http://[::1]:${port}/hook`],
  ['webhook', `http://[::ffff:127.0.0.1]:${port}/hook`],
  ['webhook', `http://[::ffff:7f00:1]:${port}/hook`],
  ['webhook', `http://localhost:${serverPort}/health`],
  ['webhook', 'http://169.254.169.254/latest/meta-data/'],
  ['webhook', 'http://[fe80::1]/'],
  ['webhook', 'http://10.0.0.1/'],
  ['webhook', 'http://172.16.5.4:8080/'],
  ['webhook', 'http://192.168.1.1/'],
  ['webhook', 'http://100.64.0.1/'],
  ['webhook', 'http://0.0.0.0:8080/'],
  ['webhook', 'http://[fd00::1]/'],
  ['webhook', 'http://[64:ff9b::7f00:1]/'],
  ['mqtt', 'mqtt://127.1:1883'],
  ['mqtt', 'mqtt://0x7f000001:1883'],
  ['mqtt', 'mqtt://[::1]:1883'],
  ['mqtt', 'mqtts://localhost:8883'],
  ['mqtt', 'ws://127.0.0.1:9001'],
  ['nats', 'nats://127.0.0.1:4222'],
  ['nats', 'nats://127.0.0.1:4223,nats://localhost:4222'],
  ['nats', 'tls://192.168.0.10:4222'],
];

describe.each(backends)('sinks made by an operator on $name', (backend) => {
  const receiver = new WebhookReceiver();
  let storage: Awaited<ReturnType<typeof backend.create>>;
  let server: RunningServer;
  let log = captureLog();
  const cookies: Record<string, string> = {};
  let clockMs = Date.now();
  let uploads = 0;

  const start = async (allowPrivateSinks?: string[]) => {
    log = captureLog();
    server = await startServer({
      port: 0,
      adminToken: ADMIN,
      mapStyle: null,
      ...storage.options,
      now: () => clockMs,
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 100,
      deliveryPollMs: 100,
      rateLimit: 0,
      logger: true,
      logStream: log.stream,
      ...(allowPrivateSinks ? { allowPrivateSinks } : {}),
    });
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  // The session helpers read the server's url only; this suite restarts the server on its storage.
  const byUrl = () => ({ url: server.url }) as TestServer;
  const as = (user: string, method: string, path: string, body?: unknown) =>
    asSession(byUrl(), cookies[user]!, method, path, body, { origin: server.url }) as Promise<{
      status: number;
      body: Json;
    }>;
  const login = async () => {
    for (const name of ['owner', 'operator', 'viewer']) {
      clockMs += 60_000;
      cookies[name] = (await loginAs(byUrl(), name, PASSWORD)).cookie!;
    }
  };
  /** A device enters the depot: one geofence.enter for every sink. */
  const enterDepot = async () => {
    uploads += 1;
    const at = new Date(clockMs - 10_000 + uploads).toISOString();
    const away = record(`away-${uploads}`, 47, 10, new Date(clockMs - 20_000 + uploads).toISOString());
    const there = record(`there-${uploads}`, 48, 11, at);
    const response = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: [away, there], device_id: `van-${uploads}` }),
    });
    expect(response.status).toBe(200);
  };
  const roundOf = (sink: string, code: string) => (line: LogLine) => line.code === code && line['sink'] === sink;

  beforeAll(async () => {
    await receiver.start();
    storage = await backend.create();
    await start();
    for (const [name, role] of [
      ['owner', 'owner'],
      ['operator', 'operator'],
      ['viewer', 'viewer'],
    ]) {
      expect((await admin('POST', '/api/users', { name, password: PASSWORD, role })).status).toBe(201);
    }
    expect((await admin('POST', '/api/geofences', FENCE)).status).toBe(201);
    await login();
  });
  afterAll(async () => {
    await server.close();
    await storage.drop();
    await receiver.stop();
  });

  it('refuses every spelling of an address inside, on both routes, and makes no sink', async () => {
    const port = Number(new URL(receiver.url).port);
    const serverPort = Number(new URL(server.url).port);
    for (const [kind, url] of inside(port, serverPort)) {
      const made = await as('operator', 'POST', '/api/sinks', { kind, url });
      expect({ url, status: made.status, code: made.body.code }).toEqual({
        url,
        status: 400,
        code: 'SINK_ADDRESS_BLOCKED',
      });
      if (kind !== 'webhook') continue;
      const hook = await as('operator', 'POST', '/api/webhooks', { url });
      expect({ url, status: hook.status, code: hook.body.code }).toEqual({
        url,
        status: 400,
        code: 'SINK_ADDRESS_BLOCKED',
      });
    }
    expect((await as('operator', 'GET', '/api/sinks')).body).toEqual([]);
    // A public address is taken. It is never contacted: no event exists yet, and the sink goes at once.
    const outside = await as('operator', 'POST', '/api/sinks', { kind: 'webhook', url: 'http://93.184.215.14/in' });
    expect(outside.status).toBe(201);
    expect((await as('operator', 'DELETE', `/api/sinks/${outside.body.id}`)).status).toBe(200);
  });

  it("tells an operator a failure's kind and a viewer nothing; the owner reads it whole", async () => {
    // The owner's own sink to a private receiver (allowed to owners), answering 503.
    const made = await as('owner', 'POST', '/api/sinks', { kind: 'webhook', url: receiver.url });
    expect(made.status).toBe(201);
    receiver.status = 503;
    const since = log.lines.length;
    await enterDepot();
    await log.line(roundOf(made.body.id, 'SINK_DELIVERY_FAILED'), since);
    const lastError = async (user: string) =>
      ((await as(user, 'GET', '/api/sinks')).body as Json[]).find((sink) => sink.id === made.body.id).lastError;
    expect(await lastError('owner')).toBe('HTTP 503');
    expect(await lastError('operator')).toBe('HTTP 5xx');
    expect(await lastError('viewer')).toBeNull();
    const viewerWebhook = await as('viewer', 'GET', `/api/webhooks/${made.body.id}`);
    expect(viewerWebhook.body.lastError).toBeNull();
    expect((await as('owner', 'DELETE', `/api/sinks/${made.body.id}`)).status).toBe(200);
    receiver.status = 204;
  });

  it("checks every connection: a name or address on the owner's allow-list reaches inside until it is taken off", async () => {
    await server.close();
    await start(['localhost', '127.0.0.1']);
    await login();
    const port = new URL(receiver.url).port;
    const made: Record<string, string> = {};
    for (const [kind, url] of [
      ['webhook', `http://localhost:${port}/hook`],
      ['literal', `http://127.0.0.1:${port}/hook`],
      ['mqtt', 'mqtt://localhost:1883'],
      ['nats', 'nats://localhost:4222'],
    ] as const) {
      const sink = await as('operator', 'POST', '/api/sinks', { kind: kind === 'literal' ? 'webhook' : kind, url });
      expect({ kind, status: sink.status }).toEqual({ kind, status: 201 });
      made[kind] = sink.body.id;
    }
    const before = receiver.accepted().length;
    let since = log.lines.length;
    await enterDepot();
    for (const id of Object.values(made)) await log.line(roundOf(id, 'SINK_DELIVERED'), since);
    // Both webhooks (by name and by address) had the depot's entry.
    const entries = receiver.accepted<{ type: string }>().slice(before);
    expect(entries.filter((event) => event.type === 'geofence.enter')).toHaveLength(2);

    // The owner takes the entries off: the same sinks now connect nowhere inside.
    await server.close();
    await start();
    await login();
    since = log.lines.length;
    const requests = receiver.requests.length;
    await enterDepot();
    for (const id of Object.values(made)) {
      const failed = await log.line(roundOf(id, 'SINK_DELIVERY_FAILED'), since);
      expect(String(failed['error'])).toMatch(/^SINK_ADDRESS_BLOCKED/);
    }
    expect(receiver.requests.length).toBe(requests);
    const listed = (await as('operator', 'GET', '/api/sinks')).body as Json[];
    expect(listed.map((sink) => sink.lastError)).toEqual(['blocked', 'blocked', 'blocked', 'blocked']);
  });

  it('lets the admin token and owners aim sinks anywhere, as before', async () => {
    for (const [kind, url] of [
      ['webhook', receiver.url],
      ['mqtt', 'mqtt://127.0.0.1:1883'],
      ['nats', 'nats://127.0.0.1:4222'],
    ]) {
      expect((await admin('POST', '/api/sinks', { kind, url })).status).toBe(201);
      expect((await as('owner', 'POST', '/api/sinks', { kind, url })).status).toBe(201);
    }
  });
});
