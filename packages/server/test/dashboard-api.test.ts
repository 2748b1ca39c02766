import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TRACK_POINTS } from '../src/tracks/simplify-track.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';

const T0 = Date.UTC(2024, 4, 1, 8);
const MINUTE = 60_000;

/** A default-schema record at second `i` of a drive north from (lat, lon). */
function fix(uuid: string, t: number, lat: number, lon: number, extra: Record<string, unknown> = {}) {
  return {
    uuid,
    timestamp: new Date(t).toISOString(),
    is_moving: true,
    odometer: 100,
    coords: { latitude: lat, longitude: lon, accuracy: 6, speed: 12.5, heading: 0, altitude: 500 },
    activity: { type: 'in_vehicle', confidence: 90 },
    battery: { level: 0.73, is_charging: false },
    extras: {},
    ...extra,
  };
}

/** Two trips of `each` fixes, one a second, 40 minutes apart, the second starting 5 km away. */
function twoTrips(device: string, each: number) {
  const first = Array.from({ length: each }, (_, i) => fix(`${device}-a${i}`, T0 + i * 1000, 48 + i * 1e-4, 11.5));
  const start2 = T0 + each * 1000 + 40 * MINUTE;
  const second = Array.from({ length: each }, (_, i) =>
    fix(`${device}-b${i}`, start2 + i * 1000, 48.05 + i * 1e-4, 11.6),
  );
  return [...first, ...second];
}

async function upload(server: TestServer, device: string, records: unknown[]) {
  for (let i = 0; i < records.length; i += 2000) {
    const reply = await server.post('/locations', { location: records.slice(i, i + 2000), device_id: device });
    expect(reply.status).toBe(200);
  }
}

for (const backend of backends) {
  describe(`dashboard API on ${backend.name}`, () => {
    let server: TestServer;
    const records = twoTrips('car', 3000);
    beforeAll(async () => {
      server = await startTestServer(backend);
      // Sent newest first, so storage order differs from time order.
      await upload(server, 'car', [...records].reverse());
      await server.post('/locations', {
        location: [
          fix('mc-1', T0 + 3000 * 1000 + 60_000, 48.3, 11.5, { event: 'motionchange', is_moving: false }),
          fix('gf-1', T0 + 3000 * 1000 + 90_000, 48.3, 11.5, {
            event: 'geofence',
            geofence: { identifier: 'depot', action: 'ENTER' },
          }),
        ],
        device_id: 'events',
      });
    });
    afterAll(() => server.stop());

    it('answers the newest position and each trip as its own line, within the point budget', async () => {
      const { status, body } = await server.admin('/api/dashboard/devices/car/track?zoom=14');
      expect(status).toBe(200);
      const newest = records.at(-1)!;
      expect(body.newest).toEqual({
        t: Date.parse(newest.timestamp),
        lat: newest.coords.latitude,
        lon: newest.coords.longitude,
      });
      expect(body.positions).toBe(6000);
      expect(body.trips).toHaveLength(2);
      const points = body.trips.flat().length;
      expect(points).toBeLessThanOrEqual(MAX_TRACK_POINTS);
      expect(points).toBeLessThan(6000); // a straight line needs few points
      expect(body.trips[0][0]).toEqual([48, 11.5, T0]);
      expect(body.trips[1].at(-1)).toEqual([
        newest.coords.latitude,
        newest.coords.longitude,
        Date.parse(newest.timestamp),
      ]);
    });

    it('limits the track to the time range, newest included', async () => {
      const to = T0 + 1000 * 1000;
      const { body } = await server.admin(`/api/dashboard/devices/car/track?from=${T0}&to=${to}`);
      expect(body.positions).toBe(1001);
      expect(body.trips).toHaveLength(1);
      expect(body.newest.t).toBe(to);
      const empty = await server.admin(`/api/dashboard/devices/car/track?from=${T0 - 3600_000}&to=${T0 - 1}`);
      expect(empty.body).toMatchObject({ positions: 0, newest: null, trips: [] });
    });

    it('pages records newest first on the server, with what each record carried', async () => {
      const first = await server.admin('/api/dashboard/devices/car/records?limit=100');
      expect(first.status).toBe(200);
      expect(first.body.total).toBe(6000);
      expect(first.body.records).toHaveLength(100);
      expect(first.body.records[0]).toMatchObject({
        uuid: 'car-b2999',
        accuracy: 6,
        speed: 12.5,
        odometer: 100,
        isMoving: true,
        activity: 'in_vehicle',
        battery: 0.73,
        event: null,
      });
      expect(first.body.records[0].record).toEqual(records.at(-1));
      const seen = new Set<string>(first.body.records.map((r: Json) => r.uuid));
      let next = first.body.next;
      let pages = 1;
      while (next && pages < 10) {
        const page = await server.admin(`/api/dashboard/devices/car/records?limit=500&before=${next}`);
        for (const r of page.body.records) seen.add(r.uuid);
        const times = page.body.records.map((r: Json) => r.recordedAt);
        expect(times).toEqual([...times].sort((a, b) => b - a));
        next = page.body.next;
        pages++;
      }
      expect(seen.size).toBe(100 + 9 * 500);
      const bad = await server.admin('/api/dashboard/devices/car/records?before=<script>');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('INVALID_PARAMETER');
    });

    it('lists motion-change and geofence records as event markers', async () => {
      const { body } = await server.admin('/api/dashboard/devices/events/events');
      expect(body.map((r: Json) => [r.event, r.uuid])).toEqual([
        ['geofence', 'gf-1'],
        ['motionchange', 'mc-1'],
      ]);
      expect(body[0].record.geofence).toEqual({ identifier: 'depot', action: 'ENTER' });
      expect(body[1].isMoving).toBe(false);
      expect((await server.admin('/api/dashboard/devices/car/events')).body).toEqual([]);
    });

    it('checks commands against the SDK command table before queueing them', async () => {
      const refused = [
        [['changePace'], 'INVALID_COMMAND_ARGUMENT'],
        [['changePace', 'yes'], 'INVALID_COMMAND_ARGUMENT'],
        [['stop', true], 'INVALID_COMMAND_ARGUMENT'],
        [['removeGeofence', 7], 'INVALID_COMMAND_ARGUMENT'],
        [['uploadLog', 'ftp://x'], 'INVALID_COMMAND_ARGUMENT'],
        [['addGeofence', { identifier: 'x', latitude: 48, longitude: 11, radius: -5 }], 'INVALID_COMMAND_ARGUMENT'],
        [['setConfig', { http: { autoSync: 'maybe' } }], 'INVALID_COMMAND_ARGUMENT'],
        [['setConfig', { noSuchKey: 1 }], 'INVALID_COMMAND_ARGUMENT'],
        [['selfDestruct'], 'UNKNOWN_COMMAND'],
      ] as const;
      for (const [command, code] of refused) {
        const reply = await server.admin('/api/devices/car/commands', { method: 'POST', body: { command } });
        expect({ command, status: reply.status, code: reply.body.code }).toEqual({ command, status: 400, code });
      }
      expect((await server.admin('/api/devices/car/commands')).body).toEqual([]);
      const accepted = [
        ['changePace', true],
        ['setConfig', { http: { autoSync: false } }],
        ['addGeofence', { identifier: 'depot', latitude: 48.1, longitude: 11.5, radius: 150 }],
        ['addGeofences', [{ identifier: 'yard', latitude: 48.2, longitude: 11.5, radius: 80 }]],
        ['removeGeofence', 'yard'],
        ['removeGeofences'],
        ['addGeofence', { identifier: 'home', latitude: 48.3, longitude: 11.6, radius: 50 }],
      ];
      for (const command of accepted) {
        const reply = await server.admin('/api/devices/car/commands', { method: 'POST', body: { command } });
        expect(reply.status).toBe(201);
      }
      const fences = await server.admin('/api/dashboard/devices/car/geofences');
      expect(fences.body).toEqual([
        expect.objectContaining({ identifier: 'home', latitude: 48.3, longitude: 11.6, radius: 50 }),
      ]);
      const table = await server.admin('/api/dashboard/commands');
      expect(table.body).toContainEqual({
        name: 'changePace',
        takes: 'true (moving) or false (stationary)',
        argument: true,
      });
      expect(table.body).toContainEqual({ name: 'stop', takes: 'no argument', argument: false });
    });

    it('lists the devices for the dashboard', async () => {
      const { body } = await server.admin('/api/dashboard/devices');
      expect(body.map((d: Json) => [d.id, d.records])).toEqual(
        expect.arrayContaining([
          ['car', 6000],
          ['events', 2],
        ]),
      );
    });

    it('needs the admin and answers 404 for an unknown device', async () => {
      expect((await server.admin('/api/dashboard/devices/car/track', { token: 'wrong' })).status).toBe(401);
      const unknown = await server.admin('/api/dashboard/devices/nobody/records');
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('UNKNOWN_DEVICE');
      const zoom = await server.admin('/api/dashboard/devices/car/track?zoom=99');
      expect(zoom.status).toBe(400);
    });
  });
}
