import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const LON_METERS = 111_320 * Math.cos((48 * Math.PI) / 180);
const fix = (uuid: string, east: number, at: number) =>
  record(uuid, 48, 11 + east / LON_METERS, new Date(at).toISOString());

interface Event {
  type: string;
  timestamp: string;
  late: boolean;
  data: Record<string, unknown>;
}

describe.each(backends)('device.silent/active and trips on $name', (backend) => {
  let server: TestServer;
  const receiver = new WebhookReceiver();
  // The server's clock, moved by the test: silence is decided against it, never by waiting.
  let clock = Date.UTC(2026, 0, 1, 12);
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    await receiver.start();
    server = await startTestServer(backend, { now: () => clock, silentAfterSeconds: 600, deliveryPollMs: 50 });
    const hook = await server.admin('/api/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['device.silent', 'device.active', 'trip.start', 'trip.end'] },
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  });

  it('reports trips by the dashboard rule, a silent device (ending its trip) and its return', async () => {
    const t0 = clock - 20 * 60_000;
    const at = (seconds: number) => t0 + seconds * 1000;
    // Drives 300 m every 30 s, stops for 6 minutes, drives on.
    const drive = [0, 30, 60, 90].map((s, i) => fix(`t${i}`, i * 300, at(s)));
    const stop = [120, 180, 240, 300, 360, 420, 480].map((s, i) => fix(`s${i}`, 1200 + (i % 2) * 5, at(s)));
    const onwards = [510, 540].map((s, i) => fix(`o${i}`, 1600 + i * 300, at(s)));
    await server.post('/locations', { location: [...drive, ...stop], device_id: 'car' });
    await server.post('/locations', { location: onwards, device_id: 'car' });
    await receiver.waitFor(3);
    expect(receiver.accepted<Event>().map((e) => [e.type, e.timestamp])).toEqual([
      ['trip.start', iso(at(0))],
      ['trip.end', iso(at(120))],
      ['trip.start', iso(at(480))],
    ]);
    expect(receiver.accepted<Event>()[1]!.data).toMatchObject({ startedAt: iso(at(0)), durationMs: 120_000 });

    // Ten minutes and a second without an upload, by the server's clock.
    const lastSeen = clock;
    clock += 601_000;
    await receiver.waitFor(5);
    expect(
      receiver
        .accepted<Event>()
        .slice(3)
        .map((e) => [e.type, e.timestamp]),
    ).toEqual([
      ['trip.end', iso(at(540))],
      ['device.silent', iso(lastSeen + 600_000)],
    ]);
    // It names why, as well as the server can tell: these records say nothing of motion or battery.
    expect(receiver.accepted<Event>()[4]!.data).toMatchObject({
      lastSeen: iso(lastSeen),
      silentAfterSeconds: 600,
      state: 'silent',
      cause: 'unexplained',
      inferred: true,
    });

    await server.post('/locations', { location: [fix('back', 5000, clock)], device_id: 'car' });
    await receiver.waitFor(6);
    const active = receiver.accepted<Event>()[5]!;
    expect([active.type, active.timestamp, active.late]).toEqual(['device.active', iso(clock), false]);
    expect(active.data).toEqual({ silentSince: iso(clock) });
  });
});
