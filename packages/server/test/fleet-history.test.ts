import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

// Fleet event history (issues 21, 22): decided and kept with no sink configured at all, read per
// device through GET /api/devices/:id/fleet-events.
const LON_METERS = 111_320 * Math.cos((48 * Math.PI) / 180);
/** A fix `east` metres east of the depot's centre (48, 11). */
const fix = (uuid: string, east: number, at: number) =>
  record(uuid, 48, 11 + east / LON_METERS, new Date(at).toISOString());
const iso = (ms: number) => new Date(ms).toISOString();

interface HistoryEvent {
  id: string;
  type: string;
  device: string;
  timestamp: string;
  late: boolean;
  data: Json;
}

describe.each(backends)('fleet event history on $name', (backend) => {
  let server: TestServer;
  // The server's clock, moved by the test: silence is decided against it.
  let clock = Date.UTC(2026, 0, 1, 12);
  const t0 = clock - 30 * 60_000;
  const at = (seconds: number) => t0 + seconds * 1000;

  const history = async (device: string, query = '') => {
    const reply = await server.admin(`/api/devices/${encodeURIComponent(device)}/fleet-events${query}`);
    expect(reply.status).toBe(200);
    return reply.body as { deviceId: string; events: HistoryEvent[]; truncated: boolean };
  };
  const kinds = (events: HistoryEvent[]) => events.map((e) => [e.type, e.timestamp]);

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock, silentAfterSeconds: 600, deliveryPollMs: 50 });
    const depot = { identifier: 'depot', latitude: 48, longitude: 11, radius: 200, extras: { site: 'north' } };
    expect((await server.admin('/api/geofences', { method: 'POST', body: depot })).status).toBe(201);
    expect((await server.admin('/api/sinks')).body).toEqual([]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('keeps geofence and trip events of a device in device order, without any sink', async () => {
    // Out of order in the upload: the server evaluates in recorded time. 300 m apart, 30 s apart.
    const track = [0, 1, 2, 3, 4].map((i) => fix(`v${i}`, -600 + i * 300, at(i * 30)));
    const reply = await server.post('/locations', { location: [...track].reverse(), device_id: 'van' });
    expect(reply.body).toMatchObject({ stored: 5 });
    const { deviceId, events, truncated } = await history('van');
    expect(deviceId).toBe('van');
    expect(truncated).toBe(false);
    expect(kinds(events)).toEqual([
      ['trip.start', iso(at(0))],
      ['geofence.enter', iso(at(60))],
      ['geofence.exit', iso(at(90))],
    ]);
    expect(events[1]).toMatchObject({
      device: 'van',
      late: true,
      data: { geofence: { identifier: 'depot', extras: { site: 'north' } }, location: { uuid: 'v2' } },
    });
    // Never a `location` event: the record itself is stored already.
    expect(events.some((e) => e.type === 'location')).toBe(false);

    // A resend stores nothing and makes no event again; a resend beside a new crossing makes only
    // the new one (decided again from what was stored now).
    await server.post('/locations', { location: track, device_id: 'van' });
    expect((await history('van')).events).toHaveLength(3);
    const back = fix('v5', 0, at(150));
    await server.post('/locations', { location: [...track, back], device_id: 'van' });
    expect(kinds((await history('van')).events)).toEqual([
      ['trip.start', iso(at(0))],
      ['geofence.enter', iso(at(60))],
      ['geofence.exit', iso(at(90))],
      ['geofence.enter', iso(at(150))],
    ]);
  });

  it('answers a device-time range, and the newest `limit` events of it', async () => {
    const ranged = await history('van', `?from=${iso(at(60))}&to=${at(120)}`);
    expect(kinds(ranged.events)).toEqual([
      ['geofence.enter', iso(at(60))],
      ['geofence.exit', iso(at(90))],
    ]);
    const newest = await history('van', '?limit=2');
    expect(newest.truncated).toBe(true);
    expect(kinds(newest.events)).toEqual([
      ['geofence.exit', iso(at(90))],
      ['geofence.enter', iso(at(150))],
    ]);
  });

  it('records a silent device and its return', async () => {
    const lastSeen = clock;
    clock += 601_000;
    // The silence check runs at each delivery poll (50 ms): its result is read through the API.
    await expect
      .poll(async () => (await history('van')).events.map((e) => e.type), { timeout: 10_000 })
      .toContain('device.silent');
    const silent = (await history('van')).events.find((e) => e.type === 'device.silent')!;
    expect(silent.data).toMatchObject({ lastSeen: iso(lastSeen), silentAfterSeconds: 600 });
    // Still inside the depot: its only events are the return, and its state named again from its
    // records (a device without health reports: inferred).
    await server.post('/locations', { location: [fix('v6', 0, clock - 1000)], device_id: 'van' });
    const events = (await history('van')).events;
    const after = events.slice(events.findIndex((e) => e.type === 'device.silent') + 1);
    expect(after.map((e) => e.type).sort()).toEqual(['device.active', 'device.state']);
    expect(after.find((e) => e.type === 'device.state')!.data).toMatchObject({ inferred: true });
  });

  it('bounds its parameters and knows its devices', async () => {
    for (const query of ['?limit=0', '?limit=1001', '?limit=abc', '?from=yesterday', `?to=${'9'.repeat(41)}`]) {
      const reply = await server.admin(`/api/devices/van/fleet-events${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe('INVALID_PARAMETER');
    }
    expect((await server.admin('/api/devices/nobody/fleet-events')).status).toBe(404);
    expect((await server.admin('/api/devices/van/fleet-events', { token: 'not-the-admin' })).status).toBe(401);
  });
});
