import { describe, expect, it } from 'vitest';
import type {
  AnchorLocation,
  BackgroundGeolocation,
  GeofenceEvent,
  GeofencesChangeEvent,
  MotionActivityEvent,
  MotionChangeEvent,
  ProviderChangeEvent,
} from '@waypost/sdk';
import { at, ManualClock, scriptedProvider, type EngineOptions } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

/** An engine on the doubles (a memory store, a manual clock, no location provider), not readied. */
const openSdk = async (options: EngineOptions = {}): Promise<BackgroundGeolocation> => (await openedEngine(options)).bg;

const T0 = Date.UTC(2026, 10, 22, 8);

describe('the anchor API: results', () => {
  it('methods work detached, bound once at creation', async () => {
    const bg = await openSdk();
    const { ready, insertLocation, getCount, getState, getLocations, destroyLocations } = bg;
    await ready({ http: { autoSync: false } });
    const uuid = await insertLocation(at(0));
    expect(await getCount()).toBe(1);
    expect((await getState()).http.autoSync).toBe(false);
    expect(await getLocations()).toEqual([expect.objectContaining({ uuid })]);
    expect(await destroyLocations()).toBe(true);
    expect(await getCount()).toBe(0);
  });

  it('insertLocation resolves with the uuid and keeps a caller-supplied one; the record is on store.insertLocation', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } });
    const given = await bg.insertLocation({ coords: { latitude: 45, longitude: -73 }, uuid: 'my-own-uuid' });
    expect(given).toBe('my-own-uuid');
    const made = await bg.insertLocation({ coords: { latitude: 45, longitude: -73 } });
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    const record = await bg.store.insertLocation(at(2));
    expect(record).toMatchObject({ uuid: expect.any(String), coords: { latitude: at(2).latitude } });
    await bg.sync();
    expect(server.requests.map((r) => (r.body as { location: { uuid: string } }).location.uuid)).toEqual([
      'my-own-uuid',
      made,
      record.uuid,
    ]);
    await expect(bg.insertLocation({ ...at(3), uuid: '' })).rejects.toMatchObject({
      code: 'INVALID_LOCATION',
      key: 'uuid',
    });
  });

  it('getLocations: order -1 is descending, page counts pages of limit, bad queries are rejected', async () => {
    const bg = await openSdk();
    await bg.ready({ http: { autoSync: false } });
    const uuids: string[] = [];
    for (let i = 0; i < 5; i++) uuids.push(await bg.insertLocation({ ...at(i), uuid: `u${i}` }));
    const ids = async (query: Parameters<typeof bg.getLocations>[0]) =>
      ((await bg.getLocations(query)) as { uuid: string }[]).map((r) => r.uuid);
    expect(await ids({})).toEqual(uuids);
    expect(await ids({ order: -1 })).toEqual([...uuids].reverse());
    expect(await ids({ order: 1, limit: 2, page: 2 })).toEqual(['u2', 'u3']);
    expect(await ids({ order: -1, limit: 2, page: 3 })).toEqual(['u0']);
    expect(await ids({ limit: 2, offset: 1 })).toEqual(['u1', 'u2']);
    await expect(bg.getLocations({ page: 2 })).rejects.toMatchObject({ code: 'INVALID_QUERY', key: 'page' });
    await expect(bg.getLocations({ order: 0 as 1 })).rejects.toMatchObject({ code: 'INVALID_QUERY', key: 'order' });
  });

  it('store.destroyLocations and store.removeGeofences keep the counts; geofence results are booleans', async () => {
    const bg = await openSdk();
    await bg.ready({});
    await bg.insertLocation(at(0));
    await bg.insertLocation(at(1));
    expect(await bg.store.destroyLocations()).toBe(2);
    const fence = { identifier: 'a', latitude: 45, longitude: -73, radius: 100 };
    expect(await bg.addGeofence(fence)).toBe(true);
    expect(
      await bg.addGeofences([
        { ...fence, identifier: 'b' },
        { ...fence, identifier: 'c' },
      ]),
    ).toBe(true);
    expect(await bg.geofenceExists('b')).toBe(true);
    expect(await bg.geofenceExists('zz')).toBe(false);
    expect(await bg.getGeofence('a')).toMatchObject({ identifier: 'a', radius: 100, notifyOnEntry: true });
    await expect(bg.getGeofence('zz')).rejects.toMatchObject({ code: 'INVALID_GEOFENCE' });
    expect(await bg.removeGeofences(['a'])).toBe(true);
    expect(await bg.store.removeGeofences()).toBe(2);
  });

  it('odometer: get, set and reset, resolving with the last known location carrying it', async () => {
    const bg = await openSdk();
    await bg.ready({ http: { autoSync: false } });
    await bg.start();
    await bg.recordLocation({ latitude: 45.5, longitude: -73.6, accuracy: 5 });
    await bg.recordLocation({ latitude: 45.5 + 100 / 111_195, longitude: -73.6, accuracy: 5 });
    expect(await bg.getOdometer()).toBeCloseTo(100, 0);
    const set = await bg.setOdometer(1234);
    expect(set).toMatchObject({ odometer: 1234, coords: { latitude: expect.closeTo(45.5009, 3) } });
    expect(await bg.getOdometer()).toBe(1234);
    expect((await bg.resetOdometer()).odometer).toBe(0);
    expect((await bg.getState()).odometer).toBe(0);
    await expect(bg.setOdometer(-1)).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });

  it('setOdometer with no location known and no location provider: set, and resolved with a location without a position', async () => {
    const bg = await openSdk(); // no location provider unless one is given
    await bg.ready({ http: { autoSync: false } });
    const set = await bg.setOdometer(5000);
    expect(set.odometer).toBe(5000);
    expect(set.coords).toMatchObject({ latitude: NaN, longitude: NaN, accuracy: -1 });
    expect(typeof set.uuid).toBe('string');
    expect(await bg.getOdometer()).toBe(5000);
    // Nothing was recorded for it.
    expect(await bg.getCount()).toBe(0);
  });

  it('reset, setLogLevel, getDeviceInfo and the anchor-shaped state', async () => {
    const bg = await openSdk({
      device: { uuid: 'd1', model: 'Pi', manufacturer: 'RPi', platform: 'linux', version: '6' },
    });
    await bg.ready({ http: { url: 'http://127.0.0.1:9/x', autoSync: false }, geolocation: { distanceFilter: 5 } });
    await bg.setLogLevel(5);
    const state = await bg.getState();
    expect(state).toMatchObject({
      logger: { logLevel: 5 },
      trackingMode: 1,
      odometerError: 0,
      schedulerEnabled: false,
    });
    expect(state.geolocation).toMatchObject({ distanceFilter: 5, stationaryRadius: 25 });
    expect(state.authorization).toBeUndefined();
    const reset = await bg.reset({ http: { batchSync: true } });
    expect(reset.http).toMatchObject({ batchSync: true, autoSync: true });
    expect(reset.http.url).toBeUndefined();
    expect(reset.ignored).toEqual({});
    expect(await bg.getDeviceInfo()).toEqual({
      uuid: 'd1',
      model: 'Pi',
      manufacturer: 'RPi',
      platform: 'linux',
      version: '6',
      framework: 'waypost',
    });
  });
});

describe('the anchor API: events', () => {
  it('payloads as the anchor declares them: location, motionchange, geofence, geofenceschange, activitychange', async () => {
    const clock = new ManualClock(T0);
    const { bg } = await engine({ http: { autoSync: false } }, { clock });
    const locations: AnchorLocation[] = [];
    const motion: MotionChangeEvent[] = [];
    const geofences: GeofenceEvent[] = [];
    const changes: GeofencesChangeEvent[] = [];
    const activities: MotionActivityEvent[] = [];
    bg.onLocation((l) => locations.push(l));
    bg.onMotionChange((e) => motion.push(e));
    bg.onGeofence((e) => geofences.push(e));
    bg.onGeofencesChange((e) => changes.push(e));
    bg.onActivityChange((e) => activities.push(e));
    await bg.addGeofence({ identifier: 'home', latitude: 45, longitude: -73, radius: 200, extras: { k: 1 } });
    await bg.start();
    await bg.recordLocation({ ...at(0), timestamp: T0 - 2000, activity: { type: 'walking', confidence: 80 } });
    await bg.recordLocation({ ...at(1), activity: { type: 'in_vehicle', confidence: 90 } });
    await bg.changePace(true);
    await bg.removeGeofence('home');

    expect(locations[0]).toMatchObject({
      recorded_at: new Date(T0 - 2000).toISOString(),
      age: 2000,
      odometer_error: 0,
    });
    expect(motion).toEqual([{ isMoving: true, location: expect.objectContaining({ event: 'motionchange', age: 0 }) }]);
    expect(geofences).toEqual([
      expect.objectContaining({
        identifier: 'home',
        action: 'ENTER',
        timestamp: new Date(T0 - 2000).toISOString(),
        extras: { k: 1 },
        geofence: expect.objectContaining({ identifier: 'home', radius: 200 }),
        location: expect.objectContaining({ geofence: expect.objectContaining({ timestamp: expect.any(String) }) }),
      }),
    ]);
    expect(changes).toEqual([
      { on: [expect.objectContaining({ identifier: 'home' })], off: [] },
      { on: [], off: ['home'] },
    ]);
    expect(activities).toEqual([
      { activity: 'walking', confidence: 80 },
      { activity: 'in_vehicle', confidence: 90 },
    ]);
  });

  it('addListener, removeListener and removeListeners', async () => {
    const bg = await openSdk();
    await bg.ready({ http: { autoSync: false } });
    await bg.start();
    const seen: string[] = [];
    const a = (l: AnchorLocation) => seen.push(`a:${l.uuid}`);
    const b = (l: AnchorLocation) => seen.push(`b:${l.uuid}`);
    bg.addListener('location', a);
    bg.addListener('location', b);
    const first = await bg.recordLocation(at(0));
    bg.removeListener('location', a);
    const second = await bg.recordLocation(at(1));
    const sub = bg.onLocation((l) => seen.push(`c:${l.uuid}`));
    await bg.removeListeners();
    await bg.recordLocation(at(2));
    expect(seen).toEqual([`a:${first.uuid}`, `b:${first.uuid}`, `b:${second.uuid}`]);
    sub.remove();
    bg.addListener('schedule', () => undefined);
    expect(() => bg.addListener('nonsense', () => undefined)).toThrow(
      expect.objectContaining({ code: 'NOT_SUPPORTED' }),
    );
  });
});

describe('the anchor API: positions from the location provider', () => {
  it('without a provider, getCurrentPosition and watchPosition fail with NO_LOCATION_PROVIDER', async () => {
    const bg = await openSdk();
    await expect(bg.getCurrentPosition()).rejects.toMatchObject({ code: 'NO_LOCATION_PROVIDER' });
    const errors: number[] = [];
    bg.watchPosition(
      {},
      () => undefined,
      (code) => errors.push(code),
    );
    await Promise.resolve();
    expect(errors).toEqual([0]);
  });

  it('getCurrentPosition takes the most accurate of its samples, stores it, and stops the provider', async () => {
    const script = scriptedProvider();
    const bg = await openSdk({ locationProvider: script.provider });
    await bg.ready({ http: { autoSync: false } });
    const pending = bg.getCurrentPosition({ samples: 2, extras: { why: 'check-in' } });
    await Promise.resolve();
    script.fix({ latitude: 45, longitude: -73, accuracy: 30 });
    script.fix({ latitude: 45.1, longitude: -73.1, accuracy: 8 });
    const location = await pending;
    expect(location).toMatchObject({ coords: { latitude: 45.1, accuracy: 8 }, extras: { why: 'check-in' } });
    expect(script.counts).toEqual({ started: 1, stopped: 1 });
    expect(await bg.getLocations()).toEqual([expect.objectContaining({ uuid: location.uuid })]);
  });

  it('getCurrentPosition times out on the injected clock; provider failures are reported on onProviderChange', async () => {
    const clock = new ManualClock(T0);
    const script = scriptedProvider();
    const bg = await openSdk({ locationProvider: script.provider, clock });
    const providers: ProviderChangeEvent[] = [];
    bg.onProviderChange((e) => providers.push(e));
    const pending = bg.getCurrentPosition({ timeout: 10, persist: false });
    const outcome = pending.catch((error: unknown) => error);
    await Promise.resolve();
    script.fail();
    await clock.advance(10_000);
    expect(await outcome).toMatchObject({ code: 'LOCATION_TIMEOUT' });
    expect(providers).toEqual([expect.objectContaining({ enabled: true, gps: false })]);
    expect(script.counts.stopped).toBe(1);
  });

  it('watchPosition delivers at most one fix per interval until removed; one provider session is shared', async () => {
    const clock = new ManualClock(T0);
    const script = scriptedProvider();
    const bg = await openSdk({ locationProvider: script.provider, clock });
    await bg.ready({ http: { autoSync: false } });
    const seen: number[] = [];
    const watch = bg.watchPosition({ interval: 1000 }, (l) => seen.push(l.coords.latitude));
    await Promise.resolve();
    script.fix({ latitude: 1, longitude: 1 });
    script.fix({ latitude: 2, longitude: 1 });
    await clock.advance(1000);
    script.fix({ latitude: 3, longitude: 1 });
    const once = bg.getCurrentPosition({ persist: false });
    await Promise.resolve();
    script.fix({ latitude: 4, longitude: 1 });
    expect((await once).coords.latitude).toBe(4);
    await clock.advance(1000);
    script.fix({ latitude: 5, longitude: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 3, 5]);
    expect(script.counts).toEqual({ started: 1, stopped: 0 });
    watch.remove();
    expect(script.counts.stopped).toBe(1);
    expect(await bg.getCount()).toBe(0);
  });
});

describe('the anchor logger', () => {
  it('getLog({ start, end, order, limit }), application messages, emailLog', async () => {
    const clock = new ManualClock(T0);
    const mails: { to: string; text: string }[] = [];
    const bg = await openSdk({ clock, mail: async (m) => void mails.push(m) });
    await bg.ready({ logger: { logLevel: 5 } });
    bg.logger.info('first');
    await clock.advance(60_000);
    bg.logger.warn('second');
    await clock.advance(60_000);
    bg.logger.error('third');
    const app = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.includes('[App]'))
        .map((l) => l.split(' ').pop());
    expect(app(await bg.logger.getLog())).toEqual(['first', 'second', 'third']);
    expect(app(await bg.logger.getLog({ order: bg.logger.ORDER_DESC }))).toEqual(['third', 'second', 'first']);
    expect(app(await bg.logger.getLog({ start: T0 + 30_000, end: T0 + 90_000 }))).toEqual(['second']);
    expect(app(await bg.logger.getLog({ start: T0 + 30_000, order: bg.logger.ORDER_ASC, limit: 1 }))).toEqual([
      'second',
    ]);
    await expect(bg.logger.getLog({ order: 2 as 1 })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    expect(await bg.logger.emailLog('ops@example.com', { start: T0 + 90_000 })).toBe(true);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe('ops@example.com');
    expect(app(mails[0]!.text)).toEqual(['third']);
  });

  it('emailLog rejects with NOT_SUPPORTED on a host without mail', async () => {
    const bg = await openSdk();
    await expect(bg.logger.emailLog('ops@example.com')).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
  });
});
