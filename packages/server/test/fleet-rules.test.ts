import { describe, expect, it } from 'vitest';
import {
  emptyDeviceState,
  evaluateInOrder,
  evaluateLateSegment,
  type EvalPoint,
} from '../src/fleet/evaluate-device.js';
import { eventId, type EventType } from '../src/fleet/fleet-event.js';
import { afterFailure, DEFAULT_RETRY } from '../src/fleet/retry-policy.js';
import { mqttTopic, natsSubject, redactedUrl } from '../src/fleet/sinks/broker-names.js';
import { signWebhook, verifyWebhook } from '../src/fleet/sinks/webhook-signature.js';
import { parseServerGeofence } from '../src/store/geofences.js';
import { splitTrips, type TrackPoint } from '../src/tracks/split-trips.js';
import { closeTrip, emptyTrip, stepTrip } from '../src/tracks/trip-tracker.js';
import { evaluateGeofence, parseGeofence, type GeofencePresence } from '@waypost/sdk/internal';

const ALL = new Set<EventType>(['geofence.enter', 'geofence.exit', 'geofence.dwell', 'trip.start', 'trip.end']);
const METERS_PER_DEGREE = 111_320;

/** A point `east` metres east of (48, 11) at minute `minute`. */
const at = (minute: number, east: number, uuid = `p${minute}`): EvalPoint => ({
  uuid,
  t: Date.UTC(2026, 0, 1) + minute * 60_000,
  lat: 48,
  lon: 11 + east / (METERS_PER_DEGREE * Math.cos((48 * Math.PI) / 180)),
});

const depot = parseServerGeofence({
  identifier: 'depot',
  latitude: 48,
  longitude: 11,
  radius: 100,
  loiteringDelay: 120_000,
});
// A square 1000..1200 m east of the origin, about 200 m tall.
const yard = parseServerGeofence({
  identifier: 'yard',
  vertices: [
    [47.999, at(0, 1000).lon],
    [48.001, at(0, 1000).lon],
    [48.001, at(0, 1200).lon],
    [47.999, at(0, 1200).lon],
  ],
});

const settings = { wanted: ALL, receivedAt: at(1000, 0).t, lateAfterMs: 300_000 };
const summary = (events: { type: string; at: number; data: Record<string, unknown>; late: boolean }[]) =>
  events.map((e) => [
    e.type,
    (e.at - Date.UTC(2026, 0, 1)) / 60_000,
    (e.data.geofence as { identifier: string } | undefined)?.identifier ?? '',
  ]);

describe('geofence evaluation in device time', () => {
  it('gives enter, dwell and exit of a circle and a polygon in order', () => {
    const track = [at(0, 0), at(1, 10), at(2, 20), at(3, 30), at(4, 400), at(5, 1100), at(6, 1150), at(7, 1500)];
    const events = evaluateInOrder(emptyDeviceState(), track, [depot, yard], {
      ...settings,
      wanted: new Set(['geofence.enter', 'geofence.exit', 'geofence.dwell']),
    });
    expect(summary(events)).toEqual([
      ['geofence.enter', 0, 'depot'],
      ['geofence.dwell', 2, 'depot'],
      ['geofence.exit', 4, 'depot'],
      ['geofence.enter', 5, 'yard'],
      ['geofence.exit', 7, 'yard'],
    ]);
    expect(events.every((e) => e.late)).toBe(true); // received long after they were recorded
  });

  it('carries the state across uploads: the same events whatever the batches', () => {
    const track = [at(0, 500), at(1, 0), at(2, 10), at(4, 20), at(5, 500), at(6, 1100), at(7, 2000)];
    const whole = evaluateInOrder(emptyDeviceState(), track, [depot, yard], settings);
    const state = emptyDeviceState();
    const pieces = [track.slice(0, 2), track.slice(2, 3), track.slice(3)].flatMap((part) =>
      evaluateInOrder(state, part, [depot, yard], settings),
    );
    expect(pieces).toEqual(whole);
    expect(new Set(whole.map((e) => eventId('d', e.type, e.key))).size).toBe(whole.length);
  });

  it('marks events late only when their records arrived long after they were recorded', () => {
    const fresh = evaluateInOrder(emptyDeviceState(), [at(0, 0)], [depot], {
      ...settings,
      receivedAt: at(0, 0).t + 1000,
    });
    expect(fresh.map((e) => [e.type, e.late])).toEqual([['geofence.enter', false]]);
  });

  it('a late record between stored ones adds the events it makes, in device time', () => {
    // Stored: outside at 0, outside at 10. Arriving late: inside the depot at 5.
    const events = evaluateLateSegment(
      at(0, 500),
      [
        { ...at(5, 0), arriving: true },
        { ...at(10, 500), arriving: false },
      ],
      [depot],
      ALL,
    );
    expect(summary(events)).toEqual([
      ['geofence.enter', 5, 'depot'],
      ['geofence.exit', 10, 'depot'],
    ]);
    expect(events.every((e) => e.late)).toBe(true);
  });

  it('a batch older than everything stored gives the geofence events a live device would have made', () => {
    const old = [at(0, 500), at(1, 0), at(4, 0), at(5, 500)];
    const geofenceEvents = new Set<EventType>(['geofence.enter', 'geofence.exit', 'geofence.dwell']);
    const live = evaluateInOrder(emptyDeviceState(), old, [depot], { ...settings, wanted: geofenceEvents });
    const late = evaluateLateSegment(
      null,
      [...old.map((p) => ({ ...p, arriving: true })), { ...at(50_000, 500), arriving: false }],
      [depot],
      ALL,
    );
    expect(summary(late)).toEqual(summary(live));
  });

  it('records stored before and after the late ones make no events among themselves', () => {
    const events = evaluateLateSegment(
      at(0, 0),
      [
        { ...at(1, 500), arriving: false },
        { ...at(2, 0), arriving: false },
        { ...at(3, 500), arriving: true },
      ],
      [depot],
      ALL,
    );
    expect(summary(events)).toEqual([['geofence.exit', 3, 'depot']]);
  });
});

describe('geofence evaluation, skipping far fences', () => {
  it('decides exactly what evaluating every fence on every record decides', () => {
    let s = 7;
    const random = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const fences = [
      depot,
      yard,
      parseServerGeofence({ identifier: 'small', latitude: 48, longitude: at(0, 600).lon, radius: 5 }),
    ];
    for (let run = 0; run < 50; run++) {
      const track = Array.from({ length: 60 }, (_, i) => at(i, random() * 1600 - 200, `r${run}-${i}`));
      const fast = evaluateInOrder(emptyDeviceState(), track, fences, settings).filter((e) =>
        e.type.startsWith('geofence'),
      );
      const presence: Record<string, GeofencePresence | undefined> = {};
      const naive = track.flatMap((p) =>
        fences.flatMap((fence) => {
          const { presence: after, transitions } = evaluateGeofence(
            fence,
            presence[fence.identifier],
            { latitude: p.lat, longitude: p.lon },
            p.t,
          );
          presence[fence.identifier] = after;
          return transitions.map((t) => [t.action, fence.identifier, p.uuid]);
        }),
      );
      expect(naive.length).toBeGreaterThan(4);
      expect(
        fast.map((e) => [
          e.type.split('.')[1]!.toUpperCase(),
          (e.data.geofence as { identifier: string }).identifier,
          (e.data.location as { uuid: string }).uuid,
        ]),
      ).toEqual(naive);
    }
  });

  it('takes the circle of a polygon from its corners, whatever circle is given', () => {
    const given = parseServerGeofence({
      identifier: 'p',
      latitude: 0,
      longitude: 0,
      radius: 1,
      vertices: yard.vertices,
    });
    expect([given.latitude, given.longitude, given.radius]).toEqual([yard.latitude, yard.longitude, yard.radius]);
  });
});

describe('trips as a stream', () => {
  /** A deterministic random track: drives, stops and gaps. */
  function randomTrack(seed: number, length: number): TrackPoint[] {
    let s = seed;
    const random = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const points: TrackPoint[] = [];
    let t = 0;
    let lat = 48;
    let lon = 11;
    for (let i = 0; i < length; i++) {
      const r = random();
      t += r < 0.05 ? 11 * 60_000 + random() * 60_000 : 10_000 + random() * 50_000;
      const moving = Math.floor(i / 20) % 3 !== 2;
      const step = moving ? 0.0005 + random() * 0.001 : random() * 0.0001;
      lat += (random() - 0.5) * step;
      lon += step;
      points.push({ t, lat, lon });
    }
    return points;
  }

  it('reports exactly the trips splitTrips cuts, on any track', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const track = randomTrack(seed, 150);
      const state = emptyTrip();
      const edges = [...track.flatMap((p) => stepTrip(state, p)), ...closeTrip(state)];
      const fromStream = edges.filter((e) => e.type === 'trip.end').map((e) => [e.start.t, e.at.t]);
      expect(fromStream).toEqual(splitTrips(track).map((trip) => [trip[0]!.t, trip[trip.length - 1]!.t]));
      // Every trip starts before it ends, once.
      expect(edges.map((e) => e.type).join(',')).toMatch(/^(trip\.start,trip\.end,?)*$/);
    }
  });

  it('ends a trip as soon as a stop makes it certain, and starts the next when the device leaves', () => {
    const state = emptyDeviceState();
    const track = [at(0, 0), at(1, 300), at(2, 600), at(3, 610), at(9, 615), at(10, 900), at(11, 1200)];
    const events = evaluateInOrder(state, track, [], settings);
    expect(summary(events)).toEqual([
      ['trip.start', 0, ''],
      ['trip.end', 2, ''],
      ['trip.start', 9, ''],
    ]);
  });
});

describe('delivery rules', () => {
  it('backs off exponentially from the base delay up to the cap, and gives up by age only', () => {
    const delays = [1, 2, 3, 4, 12, 13, 100].map((n) => afterFailure(DEFAULT_RETRY, n, 0, 1000).nextAt - 1000);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 600_000, 600_000, 600_000]);
    expect(afterFailure(DEFAULT_RETRY, 10_000, 0, DEFAULT_RETRY.retryForMs - 1).dead).toBe(false);
    expect(afterFailure(DEFAULT_RETRY, 1, 0, DEFAULT_RETRY.retryForMs).dead).toBe(true);
  });

  it('signs per Standard Webhooks (the specification test vector)', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const signature = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(verifyWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body, `v1,bogus ${signature}`)).toBe(true);
    expect(verifyWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265331, body, signature)).toBe(false);
  });

  it('gives every device its own topic level and subject token, and keeps credentials out of shown URLs', () => {
    expect(mqttTopic('waypost', 'truck/7+#', 'geofence.enter')).toBe('waypost/truck%2F7%2B%23/geofence.enter');
    expect(natsSubject('waypost', 'truck.7 *>', 'trip.end')).toBe('waypost.truck%2E7%20%2A%3E.trip.end');
    expect(natsSubject('waypost', '50%', 'location')).toBe('waypost.50%25.location');
    expect(redactedUrl('mqtt://user:pass@broker:1883')).toBe('mqtt://broker:1883');
  });

  it('reads server geofences: dwell when a loitering delay is given', () => {
    expect(depot.notifyOnDwell).toBe(true);
    expect(parseServerGeofence({ identifier: 'x', latitude: 1, longitude: 2, radius: 50 }).notifyOnDwell).toBe(false);
    expect(yard.vertices).toHaveLength(4);
    expect(() => parseServerGeofence({ identifier: 'x', latitude: 91, longitude: 0, radius: 5 })).toThrow();
    expect(() => parseGeofence({ identifier: '' })).toThrow();
  });
});
