import { describe, expect, it } from 'vitest';
import type { ConfigInput, Location } from '@waypost/sdk';
import { at } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/** Stores one record with autoSync off, uploads it with sync(), returns the request and the record. */
async function uploadOne(config: ConfigInput, count = 1) {
  const harness = await engine({ ...config, http: { autoSync: false, ...config.http } });
  const records: Location[] = [];
  for (let i = 0; i < count; i++) records.push(await harness.bg.store.insertLocation({ ...at(i), extras: { n: i } }));
  await harness.bg.sync();
  const stored = (records: Location[]) => records.map((r) => JSON.parse(JSON.stringify(r)) as unknown);
  return { ...harness, records, request: harness.server.requests[0]!, stored: stored(records) };
}

// Spec 2.3, each row through a real request.
describe('spec 2.3 upload bodies, end to end', () => {
  it('default root: the record under "location", params as siblings', async () => {
    const { request, stored } = await uploadOne({ http: { params: { device_id: 'd1', fleet: { id: 7 } } } });
    expect(request.body).toEqual({ location: stored[0], device_id: 'd1', fleet: { id: 7 } });
    expect((request.body as { location: Location }).location.coords).toMatchObject(at(0));
  });

  it('a param named like the root key never replaces the record', async () => {
    const { request, stored } = await uploadOne({ http: { params: { location: 'overwritten?', b: 2 } } });
    expect(request.body).toEqual({ location: stored[0], b: 2 });
  });

  it('custom root name: the record under it, params beside it', async () => {
    const { request, stored } = await uploadOne({ http: { rootProperty: 'data', params: { a: 1 } } });
    expect(request.body).toEqual({ data: stored[0], a: 1 });
  });

  it('root ".": the record at the root with params merged in', async () => {
    const { request, stored } = await uploadOne({ http: { rootProperty: '.', params: { device_id: 'd1' } } });
    expect(request.body).toEqual({ ...(stored[0] as object), device_id: 'd1' });
  });

  it('root "." without params: the record itself is the body, not wrapped under "location" (issue 29)', async () => {
    const { request, stored } = await uploadOne({ http: { rootProperty: '.' } });
    expect(request.body).toEqual(stored[0]);
    expect(request.body).not.toHaveProperty('location');
    const batch = await uploadOne({ http: { rootProperty: '.', batchSync: true } }, 2);
    expect(batch.request.body).toEqual(batch.stored);
  });

  it('batchSync: always an array under the root key, even of one record, params beside it', async () => {
    const one = await uploadOne({ http: { batchSync: true, params: { a: 1 } } });
    expect(one.request.body).toEqual({ location: one.stored, a: 1 });
    const three = await uploadOne({ http: { batchSync: true, rootProperty: 'points', params: { a: 1 } } }, 3);
    expect(three.request.body).toEqual({ points: three.stored, a: 1 });
  });

  it('batchSync with root ".": a bare array; params are dropped with a warning in the log', async () => {
    const { request, stored, bg } = await uploadOne(
      { http: { batchSync: true, rootProperty: '.', params: { a: 1 } } },
      2,
    );
    expect(request.body).toEqual(stored);
    expect(await bg.logger.getLog()).toMatch(/WARNING.*params dropped/);
  });

  describe('headers and method', () => {
    it('content-type application/json and every http.headers entry are sent', async () => {
      const { request } = await uploadOne({
        http: { headers: { 'X-Api-Key': 'k-123', 'X-Tenant': 'acme', Authorization: 'Bearer <ACCESS_TOKEN>' } },
      });
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-api-key']).toBe('k-123');
      expect(request.headers['x-tenant']).toBe('acme');
      expect(request.headers['authorization']).toBe('Bearer <ACCESS_TOKEN>');
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/locations');
    });

    it('a content-type given in http.headers does not replace application/json', async () => {
      const { request } = await uploadOne({ http: { headers: { 'Content-Type': 'text/plain' } } });
      expect(request.headers['content-type']).toBe('application/json');
    });

    it.each(['PUT', 'PATCH'] as const)('method %s is honoured', async (method) => {
      const { request, stored } = await uploadOne({ http: { method } });
      expect(request.method).toBe(method);
      expect(request.body).toEqual({ location: stored[0] });
    });

    it('the url is used as given, query string included', async () => {
      const { server, bg } = await engine({ http: { autoSync: false } });
      await bg.setConfig({ http: { url: `${server.url}?key=abc&v=2` } });
      await bg.store.insertLocation(at(0));
      await bg.sync();
      expect(server.requests[0]!.url).toBe('/locations?key=abc&v=2');
    });
  });

  describe('templates', () => {
    it('locationTemplate renders exactly what it says, string tags in quotes', async () => {
      const template =
        '{"lat":<%= latitude %>,"lng":<%= longitude %>,"ts":"<%= timestamp %>","id":"<%= uuid %>","moving":<%= is_moving %>,"odo":<%= odometer %>}';
      const { request, records } = await uploadOne({ persistence: { locationTemplate: template } });
      const r = records[0]!;
      expect(request.body).toEqual({
        location: {
          lat: r.coords.latitude,
          lng: r.coords.longitude,
          ts: r.timestamp,
          id: r.uuid,
          moving: false,
          odo: 0,
          n: 0,
        },
      });
    });

    it('persistence.extras merge into the template object output', async () => {
      const { request, records } = await uploadOne({
        persistence: { locationTemplate: '{"id":"<%= uuid %>"}', extras: { driver: 'ann', shift: 2 } },
      });
      // The location's own extras ({ n: 0 }) merge too.
      expect(request.body).toEqual({ location: { id: records[0]!.uuid, driver: 'ann', shift: 2, n: 0 } });
    });

    it('an array template gets the extras as its last element', async () => {
      const { request } = await uploadOne({
        persistence: { locationTemplate: '[<%= latitude %>,<%= longitude %>]', extras: { k: 'v' } },
      });
      expect(request.body).toEqual({ location: [at(0).latitude, at(0).longitude, { k: 'v', n: 0 }] });
    });

    it("persistence.extras merge into the default schema's extras, the location's own extras win", async () => {
      const harness = await engine({
        http: { autoSync: false },
        persistence: { extras: { driver: 'ann', n: 'x' } },
      });
      await harness.bg.store.insertLocation({ ...at(0), extras: { n: 1 } });
      await harness.bg.sync();
      const record = (harness.server.requests[0]!.body as { location: Location }).location;
      expect(record.extras).toEqual({ driver: 'ann', n: 1 });
    });

    it('the default schema carries uuid, timestamp, is_moving, odometer, coords, activity, battery, extras', async () => {
      const { request } = await uploadOne({});
      const record = (request.body as { location: Record<string, unknown> }).location;
      expect(Object.keys(record)).toEqual(
        expect.arrayContaining([
          'uuid',
          'timestamp',
          'is_moving',
          'odometer',
          'coords',
          'activity',
          'battery',
          'extras',
        ]),
      );
      expect(record['coords']).toEqual({
        latitude: at(0).latitude,
        longitude: at(0).longitude,
        accuracy: 5,
        speed: -1,
        heading: -1,
        altitude: -1,
        altitude_accuracy: -1,
      });
      expect(new Date(record['timestamp'] as string).toISOString()).toBe(record['timestamp']);
    });
  });
});
