// A device's track as tiles (issue 32): each tile drawn from the pyramid matches the raw records
// at its zoom (every fix within a pixel or two of a drawn line, every drawn line on the track),
// keeps a pause as a break, follows late records and retention's deletes, is scoped like the rest
// of a device's data, and refuses coordinates off the grid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../src/track-tiles/buckets.js';
import { buildTrackTiles } from '../src/track-tiles/pyramid-builder.js';
import { dirtyOfTier, replaceBuckets } from '../src/track-tiles/pyramid-store.js';
import { locationCutoffOf } from '../src/retention/retention-store.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { openStorage } from './helpers/open-storage.js';
import { loginAs, asSession } from './helpers/accounts.js';

const T0 = Date.UTC(2024, 4, 1, 8, 20); // 08:20: the first trip spans hours 08 and 09
const DAY = 86_400_000;

/** Independent Web Mercator: world pixels at zoom z (256-pixel tiles). */
function pixel(lat: number, lon: number, z: number): [number, number] {
  const size = 256 * 2 ** z;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [((lon + 180) / 360) * size, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size];
}

interface Fix {
  t: number;
  lat: number;
  lon: number;
}

const record = (uuid: string, f: Fix) => ({
  uuid,
  timestamp: new Date(f.t).toISOString(),
  is_moving: true,
  odometer: 1,
  coords: { latitude: f.lat, longitude: f.lon, accuracy: 5, speed: 10, heading: 0, altitude: 500 },
  activity: { type: 'in_vehicle', confidence: 90 },
  battery: { level: 0.5, is_charging: false },
  extras: {},
});

/** A drive of `n` fixes every 5 s round a 1.5 km circle centred at (lat, lon), starting at t. */
function loop(t: number, n: number, lat: number, lon: number): Fix[] {
  return Array.from({ length: n }, (_, i) => {
    const a = (i / n) * 2 * Math.PI;
    return { t: t + i * 5000, lat: lat + 0.0135 * Math.sin(a), lon: lon + 0.02 * Math.cos(a) };
  });
}

const distToSegment = (p: [number, number], a: [number, number], b: [number, number]) => {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len = dx * dx + dy * dy;
  const u = len === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len));
  return Math.hypot(p[0] - a[0] - u * dx, p[1] - a[1] - u * dy);
};

/** The tiles at zoom z that the fixes fall in. */
const tilesOf = (fixes: Fix[], z: number) =>
  [
    ...new Set(
      fixes.map((f) => pixel(f.lat, f.lon, z)).map(([x, y]) => `${Math.floor(x / 256)}/${Math.floor(y / 256)}`),
    ),
  ].map((s) => s.split('/').map(Number) as [number, number]);

for (const backend of backends) {
  describe(`track tiles on ${backend.name}`, () => {
    let server: TestServer;
    let clock = T0 + 30 * DAY;
    // Trip A (hours 08-09), 40 minutes parked, trip B 8 km east (hours 09-10): a break between.
    const tripA = loop(T0, 720, 48.1, 11.5);
    const tripB = loop(tripA.at(-1)!.t + 40 * 60_000, 720, 48.1, 11.62);
    const tile = async (z: number, x: number, y: number, query = '') => {
      const reply = await server.admin(`/api/dashboard/devices/car/track-tiles/${z}/${x}/${y}${query}`);
      if (reply.status !== 200) throw new Error(`tile ${z}/${x}/${y} answered ${reply.status}: ${reply.text}`);
      return reply.body.segments as number[];
    };
    const segmentsOf = (flat: number[]) =>
      Array.from(
        { length: flat.length / 4 },
        (_, i) => flat.slice(i * 4, i * 4 + 4) as [number, number, number, number],
      );
    const build = async () => {
      const db = await openStorage(server.storage);
      try {
        return await buildTrackTiles(db, clock);
      } finally {
        await db.close();
      }
    };
    const upload = async (fixes: Fix[], prefix: string) => {
      const records = fixes.map((f, i) => record(`${prefix}-${i}`, f));
      for (let i = 0; i < records.length; i += 500) {
        const reply = await server.post('/locations', { location: records.slice(i, i + 500), device_id: 'car' });
        expect(reply.status).toBe(200);
      }
    };

    /** Every tile of the trips at zoom z checked against the raw fixes; answers the segment count. */
    async function expectMatches(z: number, trips: Fix[][], query = ''): Promise<number> {
      const tolerance = z > 16 ? 2 ** (z - 16) + 1.5 : 1.5; // one pixel of the level drawn, and rounding
      const lines = trips.map((trip) => trip.map((f) => pixel(f.lat, f.lon, z)));
      let drawn = 0;
      for (const [x, y] of tilesOf(trips.flat(), z)) {
        const segments = segmentsOf(await tile(z, x, y, query)).map(
          ([ax, ay, bx, by]) =>
            [
              [ax + 0.5 + x * 256, ay + 0.5 + y * 256],
              [bx + 0.5 + x * 256, by + 0.5 + y * 256],
            ] as [[number, number], [number, number]],
        );
        drawn += segments.length;
        // The lines' pieces near this tile (the checks below look nowhere else).
        const inTile = ([px, py]: [number, number]) =>
          px > x * 256 - 16 && px < x * 256 + 272 && py > y * 256 - 16 && py < y * 256 + 272;
        const near = lines.map((line) =>
          line.flatMap((p, i) => (i > 0 && (inTile(p) || inTile(line[i - 1]!)) ? [[line[i - 1]!, p]] : [])),
        );
        const nearLine = (p: [number, number], pieces: [number, number][][]) =>
          pieces.some(([a, b]) => distToSegment(p, a!, b!) <= tolerance);
        // Every fix inside the tile lies on a drawn line.
        for (const p of lines.flat()) {
          if (p[0] < x * 256 + 2 || p[0] > x * 256 + 254 || p[1] < y * 256 + 2 || p[1] > y * 256 + 254) continue;
          const on = segments.some(([a, b]) => distToSegment(p, a, b) <= tolerance);
          expect(on, `fix at ${p.join(',')} z${z} is drawn`).toBe(true);
        }
        // Every drawn line lies on one trip: none joins trip A to trip B across the pause.
        for (const [a, b] of segments) {
          const mid: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
          const onTrip = near.some((line) => nearLine(a, line) && nearLine(b, line) && nearLine(mid, line));
          expect(onTrip, `segment ${a.join(',')}-${b.join(',')} at z${z} lies on a trip`).toBe(true);
        }
      }
      return drawn;
    }

    beforeAll(async () => {
      server = await startTestServer(backend, { now: () => clock, retentionDays: 60 });
      await upload([...tripA, ...tripB].reverse(), 'ab'); // newest first: storage order is not time order
    });
    afterAll(() => server.stop());

    it('draws the records at every zoom from the records, then from the pyramid, the pause a break', async () => {
      const zooms = [4, 9, 13, 16, 17];
      const before: number[] = [];
      for (const z of zooms) before.push(await expectMatches(z, [tripA, tripB]));
      // Built (by this call, or by the server's own worker if its pass came first): no hour stale (a
      // bucket above that has not ended yet stays stale, and is read through its children).
      await build();
      const db = await openStorage(server.storage);
      try {
        const [stored] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM track_tiles WHERE device_id = 'car'`);
        const [stale] = await db.query<{ n: number }>(
          `SELECT COUNT(*) AS n FROM track_tile_dirty WHERE device_id = 'car' AND tier = 0`,
        );
        expect(Number(stored!.n)).toBeGreaterThan(0);
        expect(Number(stale!.n)).toBe(0);
      } finally {
        await db.close();
      }
      const after: number[] = [];
      for (const z of zooms) after.push(await expectMatches(z, [tripA, tripB]));
      expect(after).toEqual(before);
      expect(after[zooms.indexOf(16)]).toBeGreaterThan(500); // the loop drawn in detail, not a few lines
    }, 120_000);

    it('draws only the range asked for, to the fix', async () => {
      await build();
      const from = tripA[100]!.t;
      const to = tripA[400]!.t;
      const part = tripA.slice(99, 401);
      await expectMatches(15, [part], `?from=${from}&to=${to}`);
      const outside = tripB;
      for (const [x, y] of tilesOf(outside, 15)) {
        const onlyB = tilesOf(part, 15).every(([px, py]) => px !== x || py !== y);
        if (onlyB) expect(await tile(15, x, y, `?from=${from}&to=${to}`)).toEqual([]);
      }
    });

    it('shows a late record at once and keeps it after the rebuild', async () => {
      await build();
      // A trip recorded days before, uploaded now (a device that was offline): 30 km north.
      const late = loop(T0 - 3 * DAY, 200, 48.4, 11.5);
      const [x, y] = tilesOf(late, 13)[0]!;
      expect(await tile(13, x, y)).toEqual([]);
      await upload(late, 'late');
      await expectMatches(13, [late]);
      await build();
      await expectMatches(13, [late]);
      await expectMatches(13, [tripA, tripB]);
    });

    it('follows retention: deleted records leave the tiles, before and after the rebuild', async () => {
      await build();
      const late = loop(T0 - 3 * DAY, 200, 48.4, 11.5);
      const [x, y] = tilesOf(late, 13)[0]!;
      expect((await tile(13, x, y)).length).toBeGreaterThan(0);
      // 60 days of retention, 59 days on: the late trip (3 days before) goes, trips A and B stay.
      clock = T0 + 59 * DAY;
      const run = await server.admin('/api/retention/run', { method: 'POST' });
      expect(run.body.locations).toBe(200);
      expect(await tile(13, x, y)).toEqual([]);
      await expectMatches(13, [tripA, tripB]);
      await build();
      expect(await tile(13, x, y)).toEqual([]);
      await expectMatches(13, [tripA, tripB]);
      // The pyramid let go of the expired hours too: no rows left behind for ever.
      const db = await openStorage(server.storage);
      try {
        const [hourFrom, hourTo] = [Math.floor(late[0]!.t / HOUR_MS), Math.floor(late.at(-1)!.t / HOUR_MS)];
        const left = await db.query<{ n: number }>(
          `SELECT COUNT(*) AS n FROM track_tiles WHERE device_id = 'car' AND tier = 0 AND bucket BETWEEN ? AND ?`,
          [hourFrom, hourTo],
        );
        expect(Number(left[0]!.n)).toBe(0);
      } finally {
        await db.close();
      }
    });

    it('empties an hour past retention without reading it, before retention has removed its records', async () => {
      const expired = loop(clock - 61 * DAY, 150, 48.7, 11.5);
      await upload(expired, 'expired');
      const [x, y] = tilesOf(expired, 13)[0]!;
      const db = await openStorage(server.storage);
      try {
        const options = { days: { locations: 60, quarantine: 60, logs: 60, events: 60 } };
        const cutoffs: string[] = [];
        const expiredBefore = (deviceId: string) => (
          cutoffs.push(deviceId),
          locationCutoffOf(db, options, deviceId, clock)
        );
        // Drawn from the records until a pass rebuilt its hours...
        expect((await tile(13, x, y)).length).toBeGreaterThan(0);
        expect(await buildTrackTiles(db, clock, undefined, expiredBefore)).toBeGreaterThan(0);
        expect(cutoffs).toContain('car');
        // ...then empty, though its records are still stored: they are past the device's period.
        expect(await tile(13, x, y)).toEqual([]);
        expect((await server.admin('/api/devices/car/locations?limit=1000')).body.length).toBeGreaterThanOrEqual(150);
        // The same hours rebuilt without the cutoff are drawn again: the cutoff is what emptied them.
        for (const hour of new Set(expired.map((f) => Math.floor(f.t / HOUR_MS))))
          await db.run(`INSERT INTO track_tile_dirty (device_id, tier, bucket, mark) VALUES ('car', 0, ?, 1)`, [hour]);
        await buildTrackTiles(db, clock);
        expect((await tile(13, x, y)).length).toBeGreaterThan(0);
      } finally {
        await db.close();
      }
      const run = await server.admin('/api/retention/run', { method: 'POST' });
      expect(run.body.locations).toBe(150);
      expect(await tile(13, x, y)).toEqual([]);
    });

    it("is read only within the reader's orgs", async () => {
      const { accessToken } = await register(server, 'acme', 'acme-van');
      const fixes = loop(T0, 50, 47.5, 9.5);
      const sent = await call(server, 'POST', '/api/locations', {
        token: accessToken,
        body: { location: fixes.map((f, i) => record(`van-${i}`, f)) },
      });
      expect(sent.status).toBe(200);
      const devices = (await server.admin('/api/devices')).body as { id: string; org?: string }[];
      const van = devices.find((d) => d.id !== 'car')!.id;
      const [x, y] = tilesOf(fixes, 12)[0]!;
      const path = `/api/dashboard/devices/${encodeURIComponent(van)}/track-tiles/12/${x}/${y}`;
      for (const [name, org] of [
        ['acme-ops', 'acme'],
        ['beta-ops', 'beta'],
      ] as const) {
        const user = { name, password: 'correct horse battery', role: 'viewer', orgs: [org] };
        expect((await server.admin('/api/users', { method: 'POST', body: user })).status).toBe(201);
      }
      const acme = await loginAs(server, 'acme-ops', 'correct horse battery');
      const beta = await loginAs(server, 'beta-ops', 'correct horse battery');
      const seen = await asSession(server, acme.cookie!, 'GET', path);
      expect(seen.status).toBe(200);
      expect((seen.body as { segments: number[] }).segments.length).toBeGreaterThan(0);
      expect((await asSession(server, beta.cookie!, 'GET', path)).status).toBe(404);
    });

    it('keeps an hour stale when a record lands while the builder reads it, and draws it at the next pass', async () => {
      // A truck's settled hour, built; then a late record marks it again.
      const hour = Math.floor((T0 - 2 * DAY) / HOUR_MS);
      const at = (minute: number, lat: number): Fix => ({ t: hour * HOUR_MS + minute * 60_000, lat, lon: 10.5 });
      const send = async (fix: Fix, uuid: string) =>
        expect((await server.post('/locations', { location: record(uuid, fix), device_id: 'truck' })).status).toBe(200);
      await send(at(5, 47.0), 'truck-1');
      await build();
      const db = await openStorage(server.storage);
      try {
        const truckDirty = async () => (await dirtyOfTier(db, 0, 10_000)).filter((d) => d.deviceId === 'truck');
        await send(at(10, 47.001), 'truck-2');
        await send(at(15, 47.002), 'truck-3');
        const listed = await truckDirty();
        expect(listed.map((d) => d.bucket)).toEqual([hour, hour + 1]);
        // The builder lists the hour and reads it; a record lands meanwhile; it writes what it read.
        await send(at(20, 47.2), 'truck-4');
        await db.transaction((tx) => replaceBuckets(tx, listed, [], 1));
        expect((await truckDirty()).map((d) => d.bucket)).toContain(hour);
        await build();
        expect(await truckDirty()).toEqual([]);
      } finally {
        await db.close();
      }
      // Every record of the hour is drawn, the one that landed mid-build too.
      for (const fix of [at(10, 47.001), at(20, 47.2)]) {
        const [[x, y]] = tilesOf([fix], 14) as [[number, number]];
        const reply = await server.admin(`/api/dashboard/devices/truck/track-tiles/14/${x}/${y}`);
        expect((reply.body.segments as number[]).length, `the tile of ${fix.lat}`).toBeGreaterThan(0);
      }
    });

    it("follows a deletion through the commercial server's API, before and after the rebuild", async () => {
      // A bus's day, built into the pyramid; then its records deleted with DELETE /api/locations.
      const day = loop(T0 - 5 * DAY, 300, 47.8, 12.2);
      // A day before and one after, elsewhere: the bus's track still spans the deleted day.
      const kept = loop(T0 - 2 * DAY, 300, 47.3, 12.9);
      const before = loop(T0 - 8 * DAY, 300, 47.3, 12.9);
      const records = [...before, ...day, ...kept].map((f, i) => record(`bus-${i}`, f));
      expect((await server.post('/locations', { location: records, device_id: 'bus' })).status).toBe(200);
      await build();
      const [x, y] = tilesOf(day, 13)[0]!;
      const busTile = async () =>
        (await server.admin(`/api/dashboard/devices/bus/track-tiles/13/${x}/${y}`)).body.segments as number[];
      expect((await busTile()).length).toBeGreaterThan(0);
      const range = `start_date=${new Date(T0 - 6 * DAY).toISOString()}&end_date=${new Date(T0 - 4 * DAY).toISOString()}`;
      const deleted = await server.admin(`/api/locations?device_id=bus&${range}`, { method: 'DELETE' });
      expect(deleted.status).toBe(200);
      expect(await busTile()).toEqual([]);
      await build();
      expect(await busTile()).toEqual([]);
      const [kx, ky] = tilesOf(kept, 13)[0]!;
      const keptTile = await server.admin(`/api/dashboard/devices/bus/track-tiles/13/${kx}/${ky}`);
      expect((keptTile.body.segments as number[]).length).toBeGreaterThan(0);
    });

    it('refuses coordinates off the grid and bounds an absurd range', async () => {
      for (const path of ['23/0/0', '2/4/0', '2/0/4', '3/-1/0', '3/0/1e1', 'x/0/0', '16/99999999/0']) {
        const reply = await server.admin(`/api/dashboard/devices/car/track-tiles/${path}`);
        expect(reply.status, path).toBe(400);
        expect(reply.body.code).toBe('INVALID_PARAMETER');
      }
      const started = performance.now();
      const reply = await server.admin(`/api/dashboard/devices/car/track-tiles/0/0/0?from=0&to=99999999999999`);
      expect(reply.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(5000);
      expect((await server.admin('/api/dashboard/devices/nobody/track-tiles/0/0/0')).status).toBe(404);
      expect((await server.admin('/api/dashboard/devices/car/track-tiles/0/0/0', { token: 'wrong' })).status).toBe(401);
    });
  });
}
