import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../src/fleet/sinks/webhook-signature.js';
import { backends } from './helpers/backends.js';
import { SINK_DEAD_LETTERED, SINK_DELIVERED, SINK_DELIVERY_FAILED } from '../src/fleet/fleet-log.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { captureLog, type LogLine } from './helpers/log-lines.js';
import { WebhookReceiver, type Received } from './helpers/webhook-receiver.js';

const METERS_PER_DEGREE = 111_320;
const LON_METERS = METERS_PER_DEGREE * Math.cos((48 * Math.PI) / 180);
/** A fix `east` metres east of (48, 11), `minutesAgo` before now. */
const fix = (uuid: string, east: number, at: number) =>
  record(uuid, 48, 11 + east / LON_METERS, new Date(at).toISOString());

interface Event {
  id: string;
  type: string;
  device: string;
  timestamp: string;
  receivedAt: string;
  late: boolean;
  data: Json;
}

const GEOFENCE_EVENTS = ['geofence.enter', 'geofence.exit', 'geofence.dwell'];

describe.each(backends)('fleet events to webhooks on $name', (backend) => {
  let server: TestServer;
  const receiver = new WebhookReceiver();
  // Each delivery round says what it did in the server's log: the tests await those lines.
  const log = captureLog();
  const t0 = Date.now() - 3_600_000;
  const minute = (n: number) => t0 + n * 60_000;

  beforeAll(async () => {
    await receiver.start();
    server = await startTestServer(backend, {
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 100,
      deliveryPollMs: 200,
      rateLimit: 0,
      logger: true,
      logStream: log.stream,
    });
    const depot = { identifier: 'depot', latitude: 48, longitude: 11, radius: 100, loiteringDelay: 120_000 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: depot })).status).toBe(201);
    const lon = (east: number) => 11 + east / LON_METERS;
    const yard = {
      identifier: 'yard',
      vertices: [
        [47.999, lon(1000)],
        [48.001, lon(1000)],
        [48.001, lon(1200)],
        [47.999, lon(1200)],
      ],
      extras: { site: 7 },
    };
    expect((await server.admin('/api/geofences', { method: 'POST', body: yard })).status).toBe(201);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  });

  let secret = '';
  let hookId = '';
  /** A line of this code about the test's webhook. */
  const of = (line: LogLine, code: string) => line.code === code && line['sink'] === hookId;

  it('manages geofences and webhooks through the admin API', async () => {
    const list = await server.admin('/api/geofences');
    expect(list.body.map((g: Json) => g.identifier)).toEqual(['depot', 'yard']);
    expect(list.body[0]).toMatchObject({ radius: 100, loiteringDelay: 120_000, notifyOnDwell: true });
    expect((await server.admin('/api/geofences', { method: 'POST', body: { identifier: 'bad' } })).status).toBe(400);
    expect((await server.admin('/api/geofences/nope', { method: 'DELETE' })).status).toBe(404);
    const created = await server.admin('/api/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: GEOFENCE_EVENTS },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    ({ id: hookId, secret } = created.body);
    const shown = await server.admin(`/api/webhooks/${hookId}`);
    expect(shown.body).toMatchObject({ id: hookId, kind: 'webhook', url: receiver.url, events: GEOFENCE_EVENTS });
    expect(shown.body.secret).toBeUndefined();
    expect((await server.admin('/api/webhooks', { method: 'POST', body: { url: 'ftp://x' } })).status).toBe(400);
    expect(
      (await server.admin('/api/webhooks', { method: 'POST', body: { url: 'http://x', events: ['nope'] } })).status,
    ).toBe(400);
    expect((await server.admin('/api/webhooks', { token: 'wrong' })).status).toBe(401);
  });

  it('a track crossing a circle and a polygon gives enter, dwell and exit in order, signed', async () => {
    const track = [
      fix('a0', 500, minute(0)),
      fix('a1', 0, minute(1)),
      fix('a2', 10, minute(2)),
      fix('a3', 20, minute(4)),
      fix('a4', 500, minute(5)),
    ];
    const rest = [fix('a5', 1100, minute(6)), fix('a6', 1150, minute(7)), fix('a7', 1500, minute(8))];
    expect((await server.post('/locations', { location: track, device_id: 'truck-1' })).status).toBe(200);
    expect((await server.post('/locations', { location: rest, device_id: 'truck-1' })).status).toBe(200);
    await receiver.waitFor(5);
    const events = receiver.accepted<Event>();
    expect(events.map((e) => [e.type, e.data.geofence.identifier, e.data.location.uuid])).toEqual([
      ['geofence.enter', 'depot', 'a1'],
      ['geofence.dwell', 'depot', 'a3'],
      ['geofence.exit', 'depot', 'a4'],
      ['geofence.enter', 'yard', 'a5'],
      ['geofence.exit', 'yard', 'a7'],
    ]);
    expect(events[3]!.data.geofence.extras).toEqual({ site: 7 });
    expect(events[0]).toMatchObject({ device: 'truck-1', timestamp: new Date(minute(1)).toISOString(), late: true });
    for (const request of receiver.requests) {
      const id = String(request.headers['webhook-id']);
      const timestamp = Number(request.headers['webhook-timestamp']);
      expect(id).toBe(JSON.parse(request.body).id);
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(verifyWebhook(secret, id, timestamp, request.body, String(request.headers['webhook-signature']))).toBe(
        true,
      );
      expect(
        verifyWebhook(secret, id, timestamp, `${request.body} `, String(request.headers['webhook-signature'])),
      ).toBe(false);
    }
    // Sent again (an SDK retry): stored once, and no event again. The next event is the next one.
    expect((await server.post('/locations', { location: rest, device_id: 'truck-1' })).body.duplicates).toBe(3);
    await server.post('/locations', { location: [fix('a8', 1100, minute(9))], device_id: 'truck-1' });
    await receiver.waitFor(6);
    expect(receiver.accepted<Event>().map((e) => [e.type, e.data.location.uuid])[5]).toEqual(['geofence.enter', 'a8']);
    expect(new Set(receiver.accepted<Event>().map((e) => e.id)).size).toBe(6);
  });

  it('a receiver answering 503, then refusing connections, gets every event afterwards, in order', async () => {
    const before = receiver.accepted().length;
    receiver.status = 503;
    // In and out of the depot three times, in one device's order, while the receiver fails.
    const base = minute(20);
    const moves = [0, 500, 0, 500, 0, 500].map((east, i) => fix(`b${i}`, east, base + i * 60_000));
    await server.post('/locations', { location: moves.slice(0, 2), device_id: 'truck-2' });
    await receiver.waitFor(2, (r) => r.status === 503);
    await receiver.stop();
    await server.post('/locations', { location: moves.slice(2), device_id: 'truck-2' });
    // A round after all six events were written meets a refused connection.
    const refused = await log.line(
      (line) => of(line, SINK_DELIVERY_FAILED) && /fetch failed|ECONNREFUSED/.test(String(line['error'])),
      log.lines.length,
    );
    expect(refused).toMatchObject({ level: 40, failed: 1 });
    const failing = await server.admin(`/api/webhooks/${hookId}`);
    expect(failing.body.pending).toBe(6);
    expect(failing.body.lastError).toMatch(/fetch failed|ECONNREFUSED/);
    receiver.status = 200;
    await receiver.start();
    await receiver.waitFor(before + 6);
    const delivering = log.lines.length; // the round that delivered the sixth has not ended yet
    const late = receiver.accepted<Event>().slice(before);
    expect(late.map((e) => [e.type, e.data.location.uuid])).toEqual([
      ['geofence.enter', 'b0'],
      ['geofence.exit', 'b1'],
      ['geofence.enter', 'b2'],
      ['geofence.exit', 'b3'],
      ['geofence.enter', 'b4'],
      ['geofence.exit', 'b5'],
    ]);
    // The first event was tried while failing and delivered later under the same id.
    const tries = receiver.requests.filter((r: Received) => r.headers['webhook-id'] === late[0]!.id);
    expect(tries.map((r) => r.status)).toEqual([...tries.slice(1).map(() => 503), 200]);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    // Rows leave the outbox once the round that delivered them ends.
    await log.line((line) => of(line, SINK_DELIVERED), delivering);
    expect((await server.admin(`/api/webhooks/${hookId}`)).body.pending).toBe(0);
    expect((await server.admin(`/api/webhooks/${hookId}`)).body).toMatchObject({ dead: 0, lastError: null });
  });

  it('a receiver that never answers does not slow ingest', async () => {
    receiver.hold = true;
    try {
      const base = Date.now() - 600_000;
      // Each upload crosses the depot (an event each), while the receiver sits on its requests.
      for (let i = 0; i < 10; i++) {
        const started = Date.now();
        const reply = await server.post('/locations', {
          location: [fix(`h${i}-in`, 0, base + i * 2000), fix(`h${i}-out`, 500, base + i * 2000 + 1000)],
          device_id: 'truck-held',
        });
        expect(reply.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(5000); // the receiver's 10 s timeout is not waited for
      }
      await receiver.waitFor(1, (r) => r.status === 0);
    } finally {
      receiver.hold = false;
    }
    // Let the next test start clean: the held requests fail now (a round waiting on them out to
    // the 10 s timeout held the next test's events 7 s), and the webhook is made anew.
    receiver.release();
    await server.admin(`/api/webhooks/${hookId}`, { method: 'DELETE' });
    const again = await server.admin('/api/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: GEOFENCE_EVENTS },
    });
    ({ id: hookId, secret } = again.body);
  });

  it('a batch 30 days late gives its events in device time, marked late', async () => {
    const now = Date.now();
    await server.post('/locations', { location: [fix('c-now', 500, now)], device_id: 'truck-3' });
    const before = receiver.accepted().length;
    const old = now - 30 * 24 * 3_600_000;
    const batch = [
      fix('c0', 500, old),
      fix('c1', 0, old + 60_000),
      fix('c2', 5, old + 180_000),
      fix('c3', 500, old + 240_000),
    ];
    expect((await server.post('/locations', { location: batch, device_id: 'truck-3' })).body.stored).toBe(4);
    await receiver.waitFor(before + 3);
    const events = receiver.accepted<Event>().slice(before);
    expect(events.map((e) => [e.type, e.timestamp, e.late])).toEqual([
      ['geofence.enter', new Date(old + 60_000).toISOString(), true],
      ['geofence.dwell', new Date(old + 180_000).toISOString(), true],
      ['geofence.exit', new Date(old + 240_000).toISOString(), true],
    ]);
  });

  it("a URL's user and password reach the receiver as Basic authorization and are shown nowhere", async () => {
    const guarded = await new WebhookReceiver().start();
    try {
      const url = guarded.url.replace('http://', 'http://hooks%40acme:s%3Acret@');
      const created = await server.admin('/api/webhooks', { method: 'POST', body: { url, events: ['location'] } });
      expect(created.status).toBe(201);
      expect(JSON.stringify(created.body)).not.toContain('s%3Acret');
      expect(JSON.stringify((await server.admin('/api/webhooks')).body)).not.toContain('s%3Acret');
      await server.post('/locations', { location: [fix('basic-1', 5000, Date.now())], device_id: 'truck-basic' });
      await guarded.waitFor(1);
      const expected = `Basic ${Buffer.from('hooks@acme:s:cret').toString('base64')}`;
      expect(guarded.requests[0]!.headers.authorization).toBe(expected);
      expect(guarded.requests[0]!.headers['webhook-signature']).toMatch(/^v1,/);
      expect(log.lines.some((line) => JSON.stringify(line).includes('s%3Acret'))).toBe(false);
      await server.admin(`/api/webhooks/${created.body.id}`, { method: 'DELETE' });
    } finally {
      await guarded.stop();
    }
  });
});

describe.each(backends)('dead letters on $name', (backend) => {
  let server: TestServer;
  const receiver = new WebhookReceiver();
  const log = captureLog();
  beforeAll(async () => {
    await receiver.start();
    // Retries given up at once: every failure is final.
    server = await startTestServer(backend, {
      retryForSeconds: 0,
      deliveryPollMs: 200,
      logger: true,
      logStream: log.stream,
    });
    await server.admin('/api/geofences', {
      method: 'POST',
      body: { identifier: 'depot', latitude: 48, longitude: 11, radius: 100 },
    });
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  });

  it('dead-letters what exhausts its retries, lists it, and replays it on demand', async () => {
    const hook = (
      await server.admin('/api/webhooks', { method: 'POST', body: { url: receiver.url, events: GEOFENCE_EVENTS } })
    ).body;
    receiver.status = 500;
    const now = Date.now();
    const track = [fix('d0', 0, now - 120_000), fix('d1', 500, now - 60_000)];
    await server.post('/locations', { location: track, device_id: 'van' });
    await receiver.waitFor(2, (r) => r.status === 500);
    const deadLettered = (line: LogLine) => line.code === SINK_DEAD_LETTERED && line['sink'] === hook.id;
    await log.line(() => log.lines.filter(deadLettered).reduce((sum, line) => sum + Number(line['dead']), 0) >= 2);
    expect(log.lines.filter(deadLettered)[0]).toMatchObject({ level: 40, error: 'HTTP 500' });
    expect((await server.admin(`/api/webhooks/${hook.id}`)).body.dead).toBe(2);
    const letters = await server.admin(`/api/sinks/${hook.id}/dead-letters`);
    expect(letters.body.map((l: Json) => [l.event.type, l.attempts, l.lastError])).toEqual([
      ['geofence.enter', 1, 'HTTP 500'],
      ['geofence.exit', 1, 'HTTP 500'],
    ]);
    receiver.status = 200;
    const replay = await server.admin(`/api/sinks/${hook.id}/replay`, { method: 'POST', body: {} });
    expect(replay.body).toEqual({ replayed: 2 });
    await receiver.waitFor(2);
    const delivering = log.lines.length; // the round that delivered them has not ended yet
    expect(receiver.accepted<Event>().map((e) => e.id)).toEqual(letters.body.map((l: Json) => l.event.id));
    await log.line((line) => line.code === SINK_DELIVERED && line['sink'] === hook.id, delivering);
    expect((await server.admin(`/api/webhooks/${hook.id}`)).body.pending).toBe(0);
    expect((await server.admin(`/api/webhooks/${hook.id}`)).body.dead).toBe(0);
    expect((await server.admin(`/api/webhooks/${hook.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await server.admin(`/api/webhooks/${hook.id}`)).status).toBe(404);
  });
});
