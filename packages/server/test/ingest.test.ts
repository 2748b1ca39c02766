import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

describe.each(backends)('ingest on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { maxRecordsPerRequest: 50, bodyLimitBytes: 64 * 1024 });
  });
  afterAll(async () => server.stop());

  const uuidsOf = async (device: string): Promise<string[]> =>
    ((await server.admin(`/api/devices/${device}/locations`)).body as { uuid: string }[]).map((r) => r.uuid);

  it('stores a single record under the default root key with params beside it', async () => {
    const reply = await server.post('/locations', { location: record('s1'), device_id: 'shape-default' });
    expect(reply).toEqual({ status: 200, body: { success: true, stored: 1, duplicates: 0 } });
    expect(await uuidsOf('shape-default')).toEqual(['s1']);
  });

  it('stores batches under a custom root with device.uuid, via PUT and PATCH and /api/locations', async () => {
    for (const [method, path, uuid] of [
      ['PUT', '/locations', 'c1'],
      ['PATCH', '/api/locations', 'c2'],
    ] as const) {
      const response = await fetch(server.url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: [record(uuid)], device: { uuid: 'shape-custom' } }),
      });
      expect(response.status).toBe(200);
    }
    expect(await uuidsOf('shape-custom')).toEqual(['c1', 'c2']);
  });

  it('stores a record at the body root (".") with params merged in, and a bare array with X-Device-Id', async () => {
    expect((await server.post('/locations', { ...record('r1'), device_id: 'shape-dot' })).body.stored).toBe(1);
    const batch = await server.post('/locations', [record('r2'), record('r3')], { 'x-device-id': 'shape-dot' });
    expect(batch.body).toEqual({ success: true, stored: 2, duplicates: 0 });
    expect(await uuidsOf('shape-dot')).toEqual(['r1', 'r2', 'r3']);
  });

  it('reads the device from inside the root object and stores arrays of bodies per device', async () => {
    await server.post('/locations', { location: { ...record('in1'), device_id: 'shape-inside' } });
    const bodies = [
      { location: [record('b1')], device_id: 'shape-arr-a' },
      { location: record('b2'), device_id: 'shape-arr-b' },
    ];
    expect((await server.post('/locations', bodies)).body).toEqual({ success: true, stored: 2, duplicates: 0 });
    expect(await uuidsOf('shape-inside')).toEqual(['in1']);
    expect(await uuidsOf('shape-arr-a')).toEqual(['b1']);
    expect(await uuidsOf('shape-arr-b')).toEqual(['b2']);
  });

  it('stores template records without uuid under a derived uuid that dedupes; quarantines one without a position', async () => {
    const templated = { lat: 1.5, lng: 2.5, ts: 'x', speed: 3 };
    const first = await server.post('/locations', { location: templated, device_id: 'shape-template' });
    const again = await server.post('/locations', { location: templated, device_id: 'shape-template' });
    const noCoords = await server.post('/locations', {
      location: { uuid: 'nc', battery: 0.4 },
      device_id: 'shape-template',
    });
    expect([first.body.stored, again.body.duplicates]).toEqual([1, 1]);
    expect(noCoords).toMatchObject({
      status: 200,
      body: { stored: 0, quarantinedRecords: [{ uuid: 'nc', code: 'NO_LOCATION' }] },
    });
    const rows = (await server.admin('/api/devices/shape-template/locations')).body as {
      uuid: string;
      latitude: number | null;
      record: unknown;
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ latitude: 1.5, record: templated });
  });

  it('dedupes a re-sent batch and counts duplicates', async () => {
    const body = { location: [record('d1'), record('d2')], device_id: 'dedupe' };
    expect((await server.post('/locations', body)).body).toEqual({ success: true, stored: 2, duplicates: 0 });
    expect((await server.post('/locations', body)).body).toEqual({ success: true, stored: 0, duplicates: 2 });
    const device = ((await server.admin('/api/devices')).body as { id: string }[]).find((d) => d.id === 'dedupe');
    expect(device).toMatchObject({
      records: 2,
      duplicates: 2,
      status: 'active',
      lastPosition: { latitude: 48.1, longitude: 11.5 },
    });
  });

  it('stores the good records of a batch and quarantines the bad one (issue 19): one bad record never blocks a device', async () => {
    const reply = await server.post('/locations', {
      location: [record('bad-ok'), record('bad-lat', 91)],
      device_id: 'reject',
    });
    expect(reply).toEqual({
      status: 200,
      body: {
        success: true,
        stored: 1,
        duplicates: 0,
        quarantined: 1,
        quarantinedRecords: [{ uuid: 'bad-lat', code: 'OUT_OF_RANGE' }],
      },
    });
    expect(await uuidsOf('reject')).toEqual(['bad-ok']);
    const kept = await server.admin('/api/devices/reject/quarantine');
    expect(kept.body.records).toEqual([
      expect.objectContaining({
        uuid: 'bad-lat',
        code: 'OUT_OF_RANGE',
        message: expect.stringContaining('location[1] latitude 91'),
        raw: JSON.stringify(record('bad-lat', 91)),
      }),
    ]);
    expect((await server.admin('/api/devices/reject')).body).toMatchObject({ records: 1, quarantined: 1 });
  });

  it.each([
    ['longitude out of range', record('q1', 10, 181), 'OUT_OF_RANGE'],
    ['coordinate of the wrong type', { ...record('q2'), coords: { latitude: '1', longitude: 2 } }, 'INVALID_TYPE'],
    ['record that is not an object', 42, 'INVALID_RECORD'],
    ['uuid of the wrong type', { ...record('q4'), uuid: 7 }, 'INVALID_TYPE'],
    ['timestamp that is not a date', { ...record('q5'), timestamp: 'yesterday' }, 'INVALID_TIMESTAMP'],
    ['record without a position', { uuid: 'q6', timestamp: new Date().toISOString() }, 'NO_LOCATION'],
  ])('quarantines a %s, with its code, and answers 200', async (_name, bad, code) => {
    const reply = await server.post('/locations', {
      location: [record(`${code}-ok-${_name.length}`), bad],
      device_id: 'q',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ stored: 1, quarantined: 1, quarantinedRecords: [{ code }] });
  });

  it.each([
    ['body that names no device', { location: record('x') }, 'NO_DEVICE'],
    ['body that is not an object or array', 17, 'INVALID_BODY'],
  ])('answers 400 with a JSON error for a %s', async (_name, body, code) => {
    const reply = await server.post('/locations', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: expect.any(String), code });
  });

  it('answers 400 for malformed JSON', async () => {
    const reply = await server.post('/locations', '{"location": [');
    expect(reply).toEqual({ status: 400, body: { error: expect.stringContaining('JSON'), code: 'MALFORMED_JSON' } });
  });

  it('answers 413 beyond the body size limit and beyond the records-per-request limit, storing nothing', async () => {
    const huge = await server.post('/locations', {
      location: record('big'),
      device_id: 'limits',
      pad: 'x'.repeat(70 * 1024),
    });
    expect(huge).toEqual({ status: 413, body: { error: expect.stringContaining('65536'), code: 'BODY_TOO_LARGE' } });
    const many = Array.from({ length: 51 }, (_, i) => record(`many-${i}`));
    const tooMany = await server.post('/locations', { location: many, device_id: 'limits' });
    expect(tooMany).toEqual({
      status: 413,
      body: { error: expect.stringContaining('at most 50'), code: 'TOO_MANY_RECORDS' },
    });
    // Not even the device was made: its export is answered as any unknown device's.
    expect((await server.admin('/api/devices/limits/locations')).body).toMatchObject({ code: 'UNKNOWN_DEVICE' });
  });

  it('maps OwnTracks, Overland and OsmAnd uploads to records that dedupe on retry', async () => {
    const owntracks = {
      _type: 'location',
      lat: 52.5,
      lon: 13.4,
      tst: 1714557600,
      acc: 12,
      vel: 36,
      tid: 'ot',
      topic: 'owntracks/ann/phone',
    };
    expect(await server.post('/owntracks', owntracks)).toEqual({ status: 200, body: [] });
    expect(await server.post('/locations', owntracks)).toEqual({ status: 200, body: [] });
    const ot = (await server.admin('/api/devices/ann-phone/locations')).body;
    expect(ot).toHaveLength(1);
    expect(ot[0]).toMatchObject({
      latitude: 52.5,
      longitude: 13.4,
      timestamp: '2024-05-01T10:00:00.000Z',
      record: { coords: { speed: 10, accuracy: 12 } },
    });

    const feature = (lon: number, lat: number, timestamp: string) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lon, lat] },
      properties: { timestamp, device_id: 'overland-1', speed: 4, horizontal_accuracy: 8 },
    });
    const overland = {
      locations: [feature(2.35, 48.85, '2024-05-01T10:00:00Z'), feature(2.36, 48.86, '2024-05-01T10:01:00Z')],
    };
    expect(await server.post('/overland', overland)).toEqual({ status: 200, body: { result: 'ok' } });
    expect(await server.post('/overland', overland)).toEqual({ status: 200, body: { result: 'ok' } });
    const ov = (await server.admin('/api/devices/overland-1/locations')).body;
    expect(ov.map((r: { longitude: number }) => r.longitude)).toEqual([2.35, 2.36]);

    const query = 'id=osm-1&lat=40.4&lon=-3.7&timestamp=1714557600000&speed=10';
    const get = await fetch(`${server.url}/osmand?${query}`);
    const post = await fetch(`${server.url}/osmand?${query.replace('1714557600000', '2024-05-01T10:00:00Z')}`, {
      method: 'POST',
    });
    expect([get.status, post.status]).toEqual([200, 200]);
    expect(await post.json()).toEqual({ success: true, stored: 0, duplicates: 1 });
    const osm = (await server.admin('/api/devices/osm-1/locations')).body;
    expect(osm).toHaveLength(1);
    expect(osm[0].record.coords.speed).toBeCloseTo(5.14444, 4);
  });

  it('exposes Prometheus counters', async () => {
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(value('waypost_records_stored_total')).toBeGreaterThan(10);
    expect(value('waypost_records_duplicate_total')).toBeGreaterThanOrEqual(5);
    expect(value('waypost_records_rejected_total')).toBeGreaterThanOrEqual(10);
    expect(text).toMatch(/^waypost_http_requests_total\{status="200"\} \d+$/m);
    expect(text).toMatch(/^waypost_http_requests_total\{status="413"\} 2$/m);
  });
});
