// Complete exports: the whole range streamed when no limit is given, and with a limit, pages that
// say more exist (Link rel="next", Waypost-Next-Cursor) and chain to every record exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

/** More records than one database page of an export (1000), three to a second so times tie. */
const COUNT = 2500;
const at = (i: number) => new Date(Date.UTC(2024, 4, 1) + Math.floor(i / 3) * 1000).toISOString();
const uuids = Array.from({ length: COUNT }, (_, i) => `p${String(i).padStart(4, '0')}`);

describe.each(backends)('complete exports on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    const track = uuids.map((uuid, i) => record(uuid, 48 + i / 1e4, 11, at(i)));
    expect((await server.post('/locations', { location: track, device_id: 'long' })).status).toBe(200);
  });
  afterAll(async () => server.stop());

  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/devices/long/locations?${query}`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it('streams every record of the range when no limit is given', async () => {
    const json = await get('format=json');
    expect(json.headers.get('link')).toBeNull();
    const uuidsOf = (JSON.parse(json.text) as { uuid: string }[]).map((r) => r.uuid);
    // Stored in this order: ties of recorded time keep their arrival order.
    expect(uuidsOf).toEqual(uuids);
    expect((await get('format=gpx')).text.match(/<trkpt /g)).toHaveLength(COUNT);
    expect((await get('format=csv')).text.trim().split('\n')).toHaveLength(COUNT + 1);
    expect((await get('format=kml')).text.match(/<Placemark>/g)).toHaveLength(COUNT);
  });

  it('pages with a limit, says more exist, and the pages chain to every record once', async () => {
    const seen: string[] = [];
    let query = 'format=geojson&limit=700';
    let pages = 0;
    for (; pages < 10; pages++) {
      const page = await get(query);
      expect(page.status, page.text).toBe(200);
      const features = (JSON.parse(page.text) as { features: { properties: { uuid: string } }[] }).features;
      seen.push(...features.map((f) => f.properties.uuid));
      const link = page.headers.get('link');
      if (link === null) {
        expect(page.headers.get('waypost-next-cursor')).toBeNull();
        break;
      }
      expect(features).toHaveLength(700);
      const next = /^<\/api\/devices\/long\/locations\?(.+)>; rel="next"$/.exec(link);
      expect(next, link).not.toBeNull();
      expect(new URLSearchParams(next![1]).get('after')).toBe(page.headers.get('waypost-next-cursor'));
      query = next![1]!;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(uuids);
  });

  it('says nothing more exists when the limit covers the rest, and refuses a cursor it did not make', async () => {
    const exact = await get(`format=json&limit=${COUNT}`);
    expect(exact.headers.get('link')).toBeNull();
    expect(JSON.parse(exact.text)).toHaveLength(COUNT);
    const bad = await get('after=1.2.3');
    expect([bad.status, JSON.parse(bad.text).code]).toEqual([400, 'INVALID_PARAMETER']);
  });

  it('caps the CSV field columns a hostile device could multiply, and says how many were left out', async () => {
    const keys = Array.from({ length: 1010 }, (_, i) => ({
      ...record(`k${i}`, 48, 11, at(i)),
      extras: { [`key${i}`]: i },
    }));
    expect((await server.post('/locations', { location: keys, device_id: 'wide' })).status).toBe(200);
    const response = await fetch(`${server.url}/api/devices/wide/locations?format=csv`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    const header = (await response.text()).split('\n')[0]!.split(',');
    expect(header).toHaveLength(1000 + 5);
    // 12 fields of the record itself (is_moving, odometer, coords.*, activity.*, battery.*) come
    // first, then 1010 extras keys: 1022 names, 1000 columns.
    expect(response.headers.get('waypost-columns-omitted')).toBe('22');
    expect(header.at(-1)).toBe('extras.key987');
  });
});
