import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, GeofenceEvent } from '@waypost/sdk';
import { createMemoryStore, ManualClock } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

/** A point `metres` north of the depot (1 degree of latitude is about 111,195 m). */
const depot = { latitude: 45.5, longitude: -73.6 };
const north = (metres: number) => ({
  latitude: depot.latitude + metres / 111_195,
  longitude: depot.longitude,
  accuracy: 5,
});
const fence = { identifier: 'depot', ...depot, radius: 100, extras: { zone: 'A' } };

async function tracked(config: Record<string, unknown> = {}, clock = new ManualClock(Date.UTC(2026, 10, 22, 8))) {
  const harness = await engine({ http: { autoSync: false }, ...config }, { clock });
  const events: GeofenceEvent[] = [];
  harness.bg.onGeofence((event) => events.push(event));
  return { ...harness, events, clock };
}

async function walk(bg: BackgroundGeolocation, clock: ManualClock, metres: number[]) {
  for (const m of metres) {
    await bg.recordLocation(north(m));
    await clock.advance(10_000);
  }
}

describe('geofences', () => {
  it('ENTER, DWELL and EXIT along a scripted track, each recorded as a geofence record and uploaded', async () => {
    const { bg, events, clock, server } = await tracked();
    await bg.addGeofence({ ...fence, notifyOnDwell: true, loiteringDelay: 60_000 });
    await bg.start();
    await walk(bg, clock, [500, 300, 50, 20]);
    expect(events.map((e) => e.action)).toEqual(['ENTER']);
    await clock.advance(60_000);
    expect(events.map((e) => e.action)).toEqual(['ENTER', 'DWELL']);
    await walk(bg, clock, [10, 400]);
    expect(events.map((e) => [e.identifier, e.action])).toEqual([
      ['depot', 'ENTER'],
      ['depot', 'DWELL'],
      ['depot', 'EXIT'],
    ]);
    expect(events[0]!.extras).toEqual({ zone: 'A' });

    await bg.sync();
    const records = server.requests.map((r) => (r.body as { location: Record<string, unknown> }).location);
    const geofenceRecords = records.filter((r) => r['event'] === 'geofence');
    expect(geofenceRecords.map((r) => r['geofence'])).toEqual([
      { identifier: 'depot', action: 'ENTER', extras: { zone: 'A' } },
      { identifier: 'depot', action: 'DWELL', extras: { zone: 'A' } },
      { identifier: 'depot', action: 'EXIT', extras: { zone: 'A' } },
    ]);
    expect(geofenceRecords[0]!['coords']).toMatchObject({ latitude: north(50).latitude });
  });

  it('notifyOnEntry/notifyOnExit false suppress those transitions', async () => {
    const { bg, events, clock } = await tracked();
    await bg.addGeofence({ ...fence, notifyOnEntry: false });
    await bg.start();
    await walk(bg, clock, [500, 0, 500]);
    expect(events.map((e) => e.action)).toEqual(['EXIT']);
  });

  it('a geofence record is rendered by persistence.geofenceTemplate when set', async () => {
    const { bg, clock, server } = await tracked({
      persistence: {
        geofenceTemplate:
          '{"fence":"<%= geofence.identifier %>","action":"<%= geofence.action %>","lat":<%= latitude %>,"uuid":"<%= uuid %>"}',
        extras: { fleet: 7 },
      },
    });
    await bg.addGeofence(fence);
    await bg.start();
    await walk(bg, clock, [500, 0]);
    await bg.sync();
    const bodies = server.requests.map((r) => (r.body as { location: Record<string, unknown> }).location);
    const fenceRecord = bodies.find((b) => 'fence' in b)!;
    expect(fenceRecord).toEqual({
      fence: 'depot',
      action: 'ENTER',
      lat: north(0).latitude,
      uuid: expect.any(String),
      fleet: 7,
      zone: 'A',
    });
  });

  it('startGeofences(): only geofence records are queued', async () => {
    const { bg, clock } = await tracked();
    await bg.addGeofence(fence);
    await bg.startGeofences();
    await walk(bg, clock, [900, 800, 50, 40, 700]);
    const records = (await bg.getLocations()) as { event?: string; geofence?: { action: string } }[];
    expect(records.map((r) => [r.event, r.geofence?.action])).toEqual([
      ['geofence', 'ENTER'],
      ['geofence', 'EXIT'],
    ]);
  });

  it('geofences and the device presence survive a reopen: an EXIT after a restart is still an EXIT', async () => {
    const store = createMemoryStore(); // what a database file is to a restart
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
    const first = (await openedEngine({ store, clock })).bg;
    await first.ready({ app: { stopOnTerminate: false } });
    await first.addGeofence(fence);
    await first.start();
    await first.recordLocation(north(0));
    await first.close();

    const second = (await openedEngine({ store, clock })).bg;
    const events: GeofenceEvent[] = [];
    second.onGeofence((e) => events.push(e));
    await second.ready({ reset: false });
    expect((await second.getState()).enabled).toBe(true);
    expect((await second.getGeofences()).map((g) => g.identifier)).toEqual(['depot']);
    await second.recordLocation(north(1000));
    expect(events.map((e) => e.action)).toEqual(['EXIT']);
  });

  it('an invalid geofence is rejected with the field named; a bad one in a list adds none', async () => {
    const { bg } = await tracked();
    await expect(bg.addGeofence({ ...fence, radius: -5 })).rejects.toMatchObject({
      code: 'INVALID_GEOFENCE',
      key: 'radius',
    });
    await expect(bg.addGeofence({ ...fence, identifier: '' })).rejects.toMatchObject({ key: 'identifier' });
    await expect(
      bg.addGeofences([
        { ...fence, identifier: 'ok' },
        { ...fence, latitude: 91 },
      ]),
    ).rejects.toMatchObject({
      key: 'latitude',
    });
    expect(await bg.getGeofences()).toEqual([]);
  });

  it('removeGeofence and removeGeofences (some, then all)', async () => {
    const { bg } = await tracked();
    await bg.addGeofences(['a', 'b', 'c', 'd'].map((identifier) => ({ ...fence, identifier })));
    expect(await bg.removeGeofence('a')).toBe(true);
    expect(await bg.removeGeofence('missing')).toBe(false);
    expect(await bg.store.removeGeofences(['b'])).toBe(1);
    expect((await bg.getGeofences()).map((g) => g.identifier)).toEqual(['c', 'd']);
    expect(await bg.store.removeGeofences()).toBe(2);
    expect(await bg.getGeofences()).toEqual([]);
  });
});
