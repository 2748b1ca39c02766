import { describe, expect, it } from 'vitest';
import type { Geofence as AnchorGeofence } from '@transistorsoft/background-geolocation-types';
import type { GeofenceEvent } from '@waypost/sdk';
import { insidePolygon } from '@waypost/sdk/internal';
import { ManualClock } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/**
 * An L-shaped yard: its bounding circle holds the notch at the north-east, which the polygon does
 * not. A track through the notch tells a polygon geofence from a circle.
 */
const YARD: [number, number][] = [
  [45.5, -73.6],
  [45.5, -73.59],
  [45.505, -73.59],
  [45.505, -73.595],
  [45.51, -73.595],
  [45.51, -73.6],
];
const inYard = { latitude: 45.502, longitude: -73.598, accuracy: 5 };
const inNotch = { latitude: 45.508, longitude: -73.592, accuracy: 5 };
const farAway = { latitude: 45.6, longitude: -73.6, accuracy: 5 };

async function tracked() {
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
  const harness = await engine({ http: { autoSync: false } }, { clock });
  const events: GeofenceEvent[] = [];
  harness.bg.onGeofence((event) => events.push(event));
  return { ...harness, events, clock };
}

describe('polygon geofences (vertices)', () => {
  it('ENTER, DWELL and EXIT follow the polygon, not the circle around it', async () => {
    const { bg, events, clock, server } = await tracked();
    const yard: AnchorGeofence = {
      identifier: 'yard',
      latitude: 0,
      longitude: 0,
      radius: 0,
      vertices: YARD,
      notifyOnDwell: true,
      loiteringDelay: 60_000,
    };
    // The anchor's type requires latitude/longitude/radius; for a polygon they are computed.
    const { latitude: _la, longitude: _lo, radius: _r, ...polygon } = yard;
    await bg.addGeofence(polygon as AnchorGeofence);
    const [stored] = await bg.getGeofences();
    expect(stored!.vertices).toEqual(YARD);
    expect(stored!.radius).toBeGreaterThan(500);

    await bg.start();
    await bg.recordLocation(farAway);
    await bg.recordLocation(inNotch);
    expect(events).toEqual([]);
    await bg.recordLocation(inYard);
    expect(events.map((e) => e.action)).toEqual(['ENTER']);
    await clock.advance(60_000);
    expect(events.map((e) => e.action)).toEqual(['ENTER', 'DWELL']);
    await bg.recordLocation(inNotch);
    expect(events.map((e) => [e.identifier, e.action])).toEqual([
      ['yard', 'ENTER'],
      ['yard', 'DWELL'],
      ['yard', 'EXIT'],
    ]);
    await bg.sync();
    const actions = server.requests
      .map((r) => (r.body as { location: { event?: string; geofence?: { action: string } } }).location)
      .filter((record) => record.event === 'geofence')
      .map((record) => record.geofence!.action);
    expect(actions).toEqual(['ENTER', 'DWELL', 'EXIT']);
  });

  it.each([
    ['two vertices', [YARD[0], YARD[1]], 'vertices'],
    ['a vertex off the globe', [...YARD.slice(0, 2), [95, 0]], 'vertices[2][0]'],
    ['a vertex that is not a pair', [...YARD.slice(0, 2), [45.5]], 'vertices[2]'],
  ])('bad vertices are rejected: %s', async (_what, vertices, key) => {
    const { bg } = await tracked();
    await expect(bg.addGeofence({ identifier: 'bad', vertices } as never)).rejects.toMatchObject({
      code: 'INVALID_GEOFENCE',
      key,
    });
    expect(await bg.getGeofences()).toEqual([]);
  });

  it('the inside test is exact at the notch (pure)', () => {
    expect(insidePolygon(YARD, inYard)).toBe(true);
    expect(insidePolygon(YARD, inNotch)).toBe(false);
    expect(insidePolygon(YARD, { latitude: 45.507, longitude: -73.597 })).toBe(true);
  });
});

it('geolocation.geofenceInitialTriggerEntry false: no ENTER for a geofence the device is already inside', async () => {
  const { bg, events } = await tracked();
  await bg.setConfig({ geolocation: { geofenceInitialTriggerEntry: false } });
  await bg.addGeofence({ identifier: 'yard', vertices: YARD });
  await bg.start();
  await bg.recordLocation(inYard);
  expect(events).toEqual([]);
  await bg.recordLocation(farAway);
  await bg.recordLocation(inYard);
  expect(events.map((e) => e.action)).toEqual(['EXIT', 'ENTER']);
});

describe('persistence.persistMode (the anchor PersistMode)', () => {
  it.each([
    ['All (2)', 2, ['location', 'geofence']],
    ['Location (1)', 1, ['location']],
    ['Geofence (-1)', -1, ['geofence']],
    ['None (0)', 0, []],
  ])(
    '%s: tracking stores only those records; events fire and insertLocation stores regardless',
    async (_what, mode, kinds) => {
      const { bg, events } = await tracked();
      await bg.setConfig({ persistence: { persistMode: mode } });
      const locations: unknown[] = [];
      bg.onLocation((l) => locations.push(l));
      await bg.addGeofence({ identifier: 'yard', vertices: YARD });
      await bg.start();
      await bg.recordLocation(inYard);
      expect(locations).toHaveLength(1);
      expect(events.map((e) => e.action)).toEqual(['ENTER']);
      const stored = (await bg.getLocations()) as { event?: string }[];
      expect(stored.map((r) => (r.event === 'geofence' ? 'geofence' : 'location'))).toEqual(kinds);
      await bg.insertLocation(farAway);
      expect(await bg.getCount()).toBe(kinds.length + 1);
    },
  );
});
