import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

describe.each(backends)('exports and logs on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    const track = [
      record('e2', 48.2, 11.6, '2024-05-01T10:01:00.000Z'),
      record('e1', 48.1, 11.5, '2024-05-01T10:00:00.000Z'),
      record('e3', 48.3, 11.7, '2024-05-01T10:02:00.000Z'),
    ];
    await server.post('/locations', { location: track, device_id: 'exp' });
  });
  afterAll(async () => server.stop());

  const get = (query: string) => server.admin(`/api/devices/exp/locations?${query}`);

  it('returns JSON records ordered by recorded time, filtered by from/to/limit', async () => {
    const all = (await get('format=json')).body;
    expect(all.map((r: { uuid: string }) => r.uuid)).toEqual(['e1', 'e2', 'e3']);
    expect(all[0]).toEqual({
      uuid: 'e1',
      timestamp: '2024-05-01T10:00:00.000Z',
      latitude: 48.1,
      longitude: 11.5,
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      record: record('e1', 48.1, 11.5, '2024-05-01T10:00:00.000Z'),
    });
    const window = (await get('from=2024-05-01T10:00:30Z&to=2024-05-01T10:02:00Z&limit=1')).body;
    expect(window.map((r: { uuid: string }) => r.uuid)).toEqual(['e2']);
    expect((await get('limit=100001')).status).toBe(400);
    expect((await get('format=kmz')).status).toBe(400);
  });

  it('exports GeoJSON, GPX and CSV', async () => {
    const geojson = (await get('format=geojson')).body;
    expect(geojson.type).toBe('FeatureCollection');
    expect(geojson.features[2]).toMatchObject({
      geometry: { type: 'Point', coordinates: [11.7, 48.3] },
      properties: {
        uuid: 'e3',
        'coords.accuracy': 5,
        'battery.level': 0.5,
        'activity.type': 'walking',
        device_id: 'exp',
      },
    });
    const gpx = (await get('format=gpx')).text;
    expect(gpx).toContain(
      '<trkpt lat="48.1" lon="11.5"><ele>500</ele><time>2024-05-01T10:00:00.000Z</time><extensions>',
    );
    expect(gpx).toContain('<waypost:field name="coords.speed">1</waypost:field>');
    expect(gpx).toContain('<waypost:field name="activity.type">walking</waypost:field>');
    expect(gpx.match(/<trkpt /g)).toHaveLength(3);
    const csv = (await get('format=csv')).text.trim().split('\n');
    // Every field of the records, not only the coordinates.
    const received = /^e\d,[^,]+,[^,]+,[^,]+,(\d{4}-[^,]+Z),/.exec(csv[1]!)![1];
    expect(csv).toEqual([
      'uuid,timestamp,latitude,longitude,received_at,is_moving,odometer,coords.latitude,coords.longitude,coords.accuracy,coords.speed,coords.heading,coords.altitude,activity.type,activity.confidence,battery.level,battery.is_charging',
      `e1,2024-05-01T10:00:00.000Z,48.1,11.5,${received},true,0,48.1,11.5,5,1,0,500,walking,100,0.5,false`,
      expect.stringMatching(/^e2,2024-05-01T10:01:00.000Z,48.2,11.6,/),
      expect.stringMatching(/^e3,2024-05-01T10:02:00.000Z,48.3,11.7,/),
    ]);
  });

  it('accepts a gzipped multipart log upload and serves it back decompressed', async () => {
    const text = '2024-05-01 INFO Location\n2024-05-01 INFO INSERT\n';
    const formData = new FormData();
    formData.append('log', new Blob([gzipSync(text)], { type: 'application/gzip' }), 'background-geolocation.log.gz');
    for (const [key, value] of Object.entries({
      device_id: 'exp',
      model: 'Box',
      platform: 'linux',
      version: '6.1',
      sdk_version: '0.1.0',
    })) {
      formData.append(key, value);
    }
    const upload = await fetch(`${server.url}/api/logs`, { method: 'POST', body: formData });
    expect(upload.status).toBe(201);
    const { id } = (await upload.json()) as { id: number };
    const list = (await server.admin('/api/logs')).body;
    expect(list[0]).toMatchObject({ id, deviceId: 'exp', model: 'Box', platform: 'linux', sdk_version: '0.1.0' });
    const back = await server.admin(`/api/logs/${id}`);
    expect([back.status, back.text]).toEqual([200, text]);
    expect((await server.admin('/api/logs/999')).status).toBe(404);
  });
});
