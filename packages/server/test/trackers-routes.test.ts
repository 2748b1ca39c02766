// Overland, OwnTracks and the Capacitor sync on their own contracts: a bad record never fails its
// batch (Overland would resend it for ever; the Capacitor plugin would drop it), an OwnTracks
// location the app counts as delivered is never lost without a quarantine row, OwnTracks devices
// are one per user and device, and a Capacitor position's id feeds the delivery ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { JSON_TYPE, quarantineOf, send, storedOf } from './helpers/trackers.js';

describe.each(backends)('tracker routes on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const feature = (coordinates: unknown[], timestamp: string) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates },
    properties: { timestamp, device_id: 'ov-mixed' },
  });

  it('Overland: a broken point is quarantined and the batch is still {"result":"ok"}', async () => {
    const body = {
      locations: [feature([2.35, 48.85], '2024-05-01T10:00:00Z'), feature(['2.36', '48.86'], '2024-05-01T10:01:00Z')],
    };
    const reply = await send(server, 'POST', '/overland', JSON.stringify(body), JSON_TYPE);
    expect(reply).toMatchObject({ status: 200, text: '{"result":"ok"}' });
    expect((await storedOf(server, 'ov-mixed')).map((r) => r.longitude)).toEqual([2.35]);
    expect((await quarantineOf(server, 'ov-mixed')).map((r) => r.code)).toEqual(['INVALID_TYPE']);
  });

  it('Overland: a batch whose points name two device ids files each point under its own, on the documented URL', async () => {
    // Points as GLManager.m writes them, from two phones whose batches a relay merged.
    const point = (device: string, timestamp: string, longitude: number) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [longitude, 37.3318] },
      properties: { timestamp, altitude: 12, speed: 1, horizontal_accuracy: 5, device_id: device, battery_level: 0.8 },
    });
    const body = {
      locations: [
        point('ov-first', '2024-10-24T14:40:00Z', -122.03),
        point('ov-second', '2024-10-24T14:40:00Z', -122.04),
        point('ov-first', '2024-10-24T14:41:00Z', -122.05),
      ],
    };
    const reply = await send(server, 'POST', '/overland?device_id=overland-phone', JSON.stringify(body), JSON_TYPE);
    expect(reply.text).toBe('{"result":"ok"}');
    expect((await storedOf(server, 'ov-first')).map((r) => r.longitude).sort((a, b) => a - b)).toEqual([
      -122.05, -122.03,
    ]);
    expect((await storedOf(server, 'ov-second')).map((r) => r.longitude)).toEqual([-122.04]);
    expect(await storedOf(server, 'overland-phone')).toEqual([]);
  });

  const location = { _type: 'location', lat: 52.5, lon: 13.4, tst: 1714557600, tid: 'JJ' };

  it('OwnTracks: one device per user and device, named by ?u=&d= or X-Limit-U/-D, never by initials alone', async () => {
    await send(server, 'POST', '/owntracks?u=jane&d=phone', JSON.stringify(location), JSON_TYPE);
    await send(server, 'POST', '/owntracks', JSON.stringify(location), {
      ...JSON_TYPE,
      'x-limit-u': 'john',
      'x-limit-d': 'phone',
    });
    expect((await storedOf(server, 'jane-phone')).length).toBe(1);
    expect((await storedOf(server, 'john-phone')).length).toBe(1);
    expect(await storedOf(server, 'JJ')).toEqual([]);
  });

  it('OwnTracks: a location without tst, encrypted or naming no one is answered [] and kept in quarantine', async () => {
    const headers = { ...JSON_TYPE, 'x-limit-u': 'kim', 'x-limit-d': 'tablet' };
    const noTime = await send(server, 'POST', '/owntracks', JSON.stringify({ ...location, tst: undefined }), headers);
    const sealed = { _type: 'encrypted', data: 'c2VjcmV0' };
    const encrypted = await send(server, 'POST', '/owntracks', JSON.stringify(sealed), headers);
    expect([noTime.status, noTime.text, encrypted.status, encrypted.text]).toEqual([200, '[]', 200, '[]']);
    expect((await quarantineOf(server, 'kim-tablet')).map((r) => r.code)).toEqual(['ENCRYPTED', 'INVALID_TIMESTAMP']);
    // Naming no user, device or tid: still answered [], and kept (never as a track point).
    const anonymous = await send(
      server,
      'POST',
      '/owntracks',
      JSON.stringify({ ...location, tid: undefined }),
      JSON_TYPE,
    );
    expect([anonymous.status, anonymous.text]).toEqual([200, '[]']);
    expect((await quarantineOf(server, 'owntracks-unnamed')).map((r) => r.code)).toEqual(['NO_DEVICE']);
    expect(await storedOf(server, 'owntracks-unnamed')).toEqual([]);
  });

  const position = (id: number, latitude: number | null) => ({
    id,
    latitude,
    longitude: 13.405,
    accuracy: 5,
    altitude: null,
    altitudeAccuracy: null,
    bearing: null,
    speed: 1.5,
    simulated: false,
    timestamp: 1723291200000 + id * 1000,
  });

  it('Capacitor: positions by id into the ledger; a bad one quarantined with its id, the batch 200', async () => {
    const batch = { positions: [1, 2, 3, 5].map((id) => position(id, 52.52)).concat(position(6, null)) };
    const reply = await send(server, 'POST', '/capacitor', JSON.stringify(batch), {
      ...JSON_TYPE,
      'x-device-id': 'cap-ledger',
    });
    expect(reply).toMatchObject({ status: 200, body: { stored: 4, quarantined: 1 } });
    const again = await send(
      server,
      'POST',
      '/capacitor?device_id=cap-ledger',
      JSON.stringify({ positions: [position(1, 52.52)] }),
      JSON_TYPE,
    );
    expect(again.body).toMatchObject({ stored: 0, duplicates: 1 });
    const ledger = (await server.admin('/api/devices/cap-ledger/ledger')).body;
    expect(ledger).toMatchObject({
      highestSequence: 6,
      received: 4,
      quarantined: 1,
      missing: 1,
      missingRanges: [[4, 4]],
    });
    // Naming no device: the plugin would drop a 4xx batch for good, so it is kept in quarantine.
    const lost = await send(
      server,
      'POST',
      '/capacitor',
      JSON.stringify({ positions: [position(9, 52.52)] }),
      JSON_TYPE,
    );
    expect(lost).toMatchObject({ status: 200, body: { stored: 0, quarantined: 1 } });
    expect((await quarantineOf(server, 'capacitor-unnamed')).map((r) => [r.code, JSON.parse(r.raw).id])).toEqual([
      ['NO_DEVICE', 9],
    ]);
    const named = { positions: [position(1, 40)], extras: { device_id: 'cap-extras' } };
    expect((await send(server, 'POST', '/capacitor', JSON.stringify(named), JSON_TYPE)).body.stored).toBe(1);
    expect((await storedOf(server, 'cap-extras'))[0]!.record.coords.speed).toBe(1.5);
  });
});
