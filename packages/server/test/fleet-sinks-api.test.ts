import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

// Sinks of any kind through POST /api/sinks, by the command line's rules, and paused sinks whose
// events wait in their backlog until resumed (issue 32: the dashboard's sink editor uses these).
describe.each(backends)('the sinks API on $name', (backend) => {
  let server: TestServer;
  const held = new WebhookReceiver();
  const open = new WebhookReceiver();

  beforeAll(async () => {
    await held.start();
    await open.start();
    server = await startTestServer(backend, { deliveryPollMs: 100, retryBaseDelayMs: 20, retryMaxDelayMs: 100 });
  });
  afterAll(async () => {
    await server.stop();
    await held.stop();
    await open.stop();
  });

  const add = (body: Json) => server.admin('/api/sinks', { method: 'POST', body });
  const backlog = async (id: string): Promise<Json> =>
    ((await server.admin('/api/sinks')).body as Json[]).find((s) => s.id === id);

  it('adds webhook, MQTT and NATS sinks by the rules of --webhook, --mqtt and --nats', async () => {
    const refusals: [Json, string][] = [
      [{ kind: 'ftp', url: 'ftp://x' }, 'kind must be webhook, mqtt or nats'],
      [{ kind: 'mqtt', url: 'http://broker:1883' }, 'url must be a mqtt(s):// or ws(s):// URL'],
      [{ kind: 'nats', url: 'nats://a:4222,http://b' }, 'url must be a nats:// or tls:// URL'],
      [{ kind: 'webhook', url: 'mqtt://x' }, 'url must be an http(s) URL'],
      [{ kind: 'mqtt', url: 'mqtt://broker', secret: 'whsec_x' }, 'secret is for webhooks only'],
      [{ kind: 'mqtt', url: 'mqtt://broker', events: ['nope'] }, 'events: unknown event type "nope"'],
    ];
    for (const [body, error] of refusals) {
      const reply = await add(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toBe(error);
    }
    const typo = await add({ kind: 'mqtt', url: 'mqtt://broker', event: ['trip.start'] });
    expect(typo).toMatchObject({ status: 400, body: { code: 'INVALID_OPTION', key: 'event' } });

    const nats = await add({ kind: 'nats', url: 'nats://u:p@127.0.0.1:1,nats://127.0.0.1:2', events: ['trip.start'] });
    expect(nats.status).toBe(201);
    // Listed without the password, and no secret for a broker.
    expect(nats.body).toMatchObject({ kind: 'nats', url: 'nats://127.0.0.1:1,nats://127.0.0.1:2', paused: false });
    expect(nats.body.secret).toBeUndefined();
    const mqtt = await add({ kind: 'mqtt', url: 'mqtts://broker.example:8883' });
    expect(mqtt).toMatchObject({
      status: 201,
      body: { kind: 'mqtt', events: expect.not.arrayContaining(['location']) },
    });
    const hook = await add({ kind: 'webhook', url: 'https://example.test/hook' });
    expect(hook.body.secret).toMatch(/^whsec_/);
    for (const sink of [nats, mqtt, hook])
      expect((await server.admin(`/api/sinks/${sink.body.id}`, { method: 'DELETE' })).status).toBe(200);
  });

  it("keeps a paused sink's events in its backlog and sends them, in order, once resumed", async () => {
    const paused = (await add({ kind: 'webhook', url: held.url, events: ['location'] })).body;
    const running = (await add({ kind: 'webhook', url: open.url, events: ['location'] })).body;
    expect((await server.admin(`/api/sinks/${paused.id}`, { method: 'PATCH', body: { paused: 'yes' } })).status).toBe(
      400,
    );
    expect((await server.admin('/api/sinks/nope', { method: 'PATCH', body: { paused: true } })).status).toBe(404);
    const pause = await server.admin(`/api/sinks/${paused.id}`, { method: 'PATCH', body: { paused: true } });
    expect(pause.body).toMatchObject({ id: paused.id, paused: true });

    const now = Date.now();
    const fixes = [
      record('a', 48, 11, new Date(now - 2000).toISOString()),
      record('b', 48, 11.001, new Date(now).toISOString()),
    ];
    expect((await server.post('/locations', { location: fixes, device_id: 'van' })).status).toBe(200);
    // The running sink got both: the worker has been round since, and the paused one got nothing.
    await open.waitFor(2);
    expect(held.requests).toHaveLength(0);
    expect(await backlog(paused.id)).toMatchObject({ pending: 2, paused: true });
    // Marked delivered just after the receiver answered: read until it is.
    await expect.poll(async () => (await backlog(running.id)).pending, { timeout: 10_000 }).toBe(0);

    const resume = await server.admin(`/api/sinks/${paused.id}`, { method: 'PATCH', body: { paused: false } });
    expect(resume.body.paused).toBe(false);
    await held.waitFor(2);
    expect(held.accepted<{ data: { uuid: string } }>().map((e) => e.data.uuid)).toEqual(['a', 'b']);
    await expect.poll(async () => (await backlog(paused.id)).pending, { timeout: 10_000 }).toBe(0);
    expect((await backlog(paused.id)).paused).toBe(false);
  });
});
