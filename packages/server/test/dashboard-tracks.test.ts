import { describe, expect, it } from 'vitest';
import { channelOf, MAX_PAYLOAD_CHARS, packPayloads } from '../src/live/postgres-feed.js';
import { geofencesFromCommands } from '../src/tracks/known-geofences.js';
import { summarizeRecord } from '../src/tracks/record-summary.js';
import { degreesPerPixel, MAX_TRACK_POINTS, simplifyTrips } from '../src/tracks/simplify-track.js';
import { nearMeters, splitTrips, TRIP_RULES, type TrackPoint } from '../src/tracks/split-trips.js';

const T0 = Date.UTC(2024, 4, 1);
/** About 1.1 m of latitude. */
const STEP = 0.00001;

/** A drive north: one fix a second, `metersPerFix` apart. */
function drive(start: number, fixes: number, from: TrackPoint = { t: T0, lat: 48, lon: 11 }, metersPerFix = 10) {
  return Array.from({ length: fixes }, (_, i) => ({
    t: start + i * 1000,
    lat: from.lat + i * metersPerFix * 0.9 * STEP,
    lon: from.lon + Math.sin(i / 20) * 0.001,
  }));
}

describe('splitting a track into trips', () => {
  it('splits at a gap in time longer than the rule, and only there', () => {
    const first = drive(T0, 100);
    // A pause of exactly the rule after moving 500 m unrecorded (a tunnel): still the same trip.
    const justUnder = drive(first.at(-1)!.t + TRIP_RULES.gapMs, 50, {
      ...first.at(-1)!,
      lat: first.at(-1)!.lat + 0.0045,
    });
    const afterGap = drive(justUnder.at(-1)!.t + TRIP_RULES.gapMs + 1, 80, { t: 0, lat: 49, lon: 12 });
    const trips = splitTrips([...first, ...justUnder, ...afterGap]);
    expect(trips.map((trip) => trip.length)).toEqual([150, 80]);
    expect(trips[1]![0]).toEqual(afterGap[0]);
  });

  it('splits at a stationary period and leaves the stop out of both trips', () => {
    const before = drive(T0, 60);
    const parked = before.at(-1)!;
    // Parked for longer than the rule, one fix every 10 s, jittering a few metres.
    const stop = Array.from({ length: TRIP_RULES.stopMs / 10_000 + 5 }, (_, i) => ({
      t: parked.t + (i + 1) * 10_000,
      lat: parked.lat + (i % 3) * 2 * STEP,
      lon: parked.lon,
    }));
    const after = drive(stop.at(-1)!.t + 1000, 40, { t: 0, lat: parked.lat + 0.01, lon: parked.lon });
    const trips = splitTrips([...before, ...stop, ...after]);
    expect(trips).toHaveLength(2);
    // The first trip ends where the stop began (within its radius), the second starts where it ended.
    expect(nearMeters(trips[0]!.at(-1)!, parked)).toBeLessThanOrEqual(TRIP_RULES.stopRadiusM);
    expect(trips[0]!.every((p) => p.t <= parked.t)).toBe(true);
    expect(trips[1]![0]).toEqual(stop.at(-1));
    expect(trips[1]!.slice(1).every((p) => p.t > stop.at(-1)!.t)).toBe(true);
    expect(trips[1]!.at(-1)).toEqual(after.at(-1));
  });

  it('keeps a short halt (a traffic light) inside the trip', () => {
    const before = drive(T0, 60);
    const halt = Array.from({ length: 6 }, (_, i) => ({ ...before.at(-1)!, t: before.at(-1)!.t + (i + 1) * 10_000 }));
    const after = drive(halt.at(-1)!.t + 1000, 40, { t: 0, lat: before.at(-1)!.lat + 0.001, lon: 11 });
    expect(splitTrips([...before, ...halt, ...after]).map((trip) => trip.length)).toEqual([106]);
  });

  it('draws no line for a single fix or an empty track', () => {
    expect(splitTrips([])).toEqual([]);
    expect(splitTrips([{ t: T0, lat: 1, lon: 1 }])).toEqual([]);
  });
});

describe('simplifying trips for a zoom level', () => {
  it('keeps every trip`s endpoints and bounds the point count', () => {
    const trips = Array.from({ length: 20 }, (_, n) =>
      drive(T0 + n * 7_200_000, 50_000, { t: 0, lat: 40 + n * 0.1, lon: 10 }, 3),
    );
    for (const zoom of [2, 12, 22]) {
      const drawn = simplifyTrips(trips, zoom);
      expect(drawn).toHaveLength(trips.length);
      const total = drawn.reduce((sum, trip) => sum + trip.length, 0);
      expect(total).toBeLessThanOrEqual(MAX_TRACK_POINTS);
      drawn.forEach((trip, n) => {
        expect(trip[0]).toBe(trips[n]![0]);
        expect(trip.at(-1)).toBe(trips[n]![trips[n]!.length - 1]);
      });
    }
  });

  it('keeps more detail the closer the zoom, within a pixel of the original', () => {
    const trip = drive(T0, 5000, undefined, 3);
    const far = simplifyTrips([trip], 8, 1_000_000)[0]!;
    const near = simplifyTrips([trip], 18, 1_000_000)[0]!;
    expect(near.length).toBeGreaterThan(far.length);
    expect(far.length).toBeGreaterThanOrEqual(2);
    // Every dropped point lies within about a pixel of the simplified line's bends at that zoom.
    const tolerance = degreesPerPixel(18);
    const kept = new Set(near);
    for (const point of trip.filter((p) => !kept.has(p)).slice(0, 200)) {
      const nearest = Math.min(...near.map((q) => Math.hypot(q.lat - point.lat, q.lon - point.lon)));
      expect(nearest).toBeLessThan(tolerance * 200);
    }
  });
});

describe('reading what a record carried', () => {
  it('reads the default schema, flat templates, and treats -1 and wrong types as unknown', () => {
    expect(
      summarizeRecord({
        is_moving: true,
        odometer: 1234,
        event: 'motionchange',
        coords: { latitude: 1, longitude: 2, accuracy: 7, speed: -1 },
        activity: { type: 'on_foot', confidence: 80 },
        battery: { level: 0.42, is_charging: false },
      }),
    ).toEqual({
      accuracy: 7,
      speed: null,
      odometer: 1234,
      event: 'motionchange',
      isMoving: true,
      activity: 'on_foot',
      battery: 0.42,
    });
    expect(summarizeRecord({ lat: 1, lon: 2, accuracy: 3, speed: 4.5, battery: 0.9, activity: 'still' })).toEqual({
      accuracy: 3,
      speed: 4.5,
      odometer: null,
      event: null,
      isMoving: null,
      activity: 'still',
      battery: 0.9,
    });
    expect(summarizeRecord({ coords: { accuracy: '<b>5</b>' }, event: { x: 1 }, is_moving: 'yes' })).toMatchObject({
      accuracy: null,
      event: null,
      isMoving: null,
    });
    expect(summarizeRecord(null).accuracy).toBeNull();
  });
});

describe('the geofences a device was told to monitor', () => {
  it('replays add and remove commands in order and skips unreadable ones', () => {
    const fence = (identifier: string) => ({ identifier, latitude: 48, longitude: 11, radius: 100 });
    const fences = geofencesFromCommands([
      ['addGeofence', fence('home')],
      ['addGeofences', [fence('work'), fence('gym'), { identifier: 'bad', radius: -1 }]],
      ['removeGeofence', 'gym'],
      ['changePace', true],
      ['addGeofence', 'not an object'],
    ]);
    expect(fences.map((f) => f.identifier)).toEqual(['home', 'work']);
    expect(geofencesFromCommands([['addGeofence', fence('a')], ['removeGeofences']])).toEqual([]);
    expect(
      geofencesFromCommands([
        ['addGeofences', [fence('a'), fence('b')]],
        ['removeGeofences', ['a']],
      ]).map((f) => f.identifier),
    ).toEqual(['b']);
  });
});

describe('packing live positions into NOTIFY payloads', () => {
  const event = (deviceId: string) => ({
    deviceId,
    stored: 1,
    records: 1,
    latitude: 48,
    longitude: 11,
    timestamp: '2024-05-01T10:00:00.000Z',
  });

  it('fills payloads up to the limit, keeps every event once and in order, and leaves out one too large alone', () => {
    const events = [...Array.from({ length: 300 }, (_, i) => event(`d-${i}`)), event('x'.repeat(MAX_PAYLOAD_CHARS))];
    const payloads = packPayloads(events);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(payload.length).toBeLessThanOrEqual(MAX_PAYLOAD_CHARS);
    const unpacked = payloads.flatMap((payload) => JSON.parse(payload) as { deviceId: string }[]);
    expect(unpacked.map((e) => e.deviceId)).toEqual(events.slice(0, 300).map((e) => e.deviceId));
    expect(packPayloads([])).toEqual([]);
  });

  it('names one channel per schema, within PostgreSQL`s 63 characters', () => {
    expect(channelOf('public')).toBe('waypost_live_public');
    expect(channelOf('s'.repeat(63))).toHaveLength(63);
  });
});
