import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { rawSql } from './helpers/raw-sql.js';

const DAY_MS = 24 * 3600 * 1000;

describe.each(backends)('hostile input on $name', (backend) => {
  let server: TestServer;
  const nowMs = Date.UTC(2024, 4, 1, 12);
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => nowMs });
  });
  afterAll(async () => server.stop());

  const deviceIds = async () => ((await server.admin('/api/devices')).body as { id: string }[]).map((d) => d.id);
  const at = (timestamp: unknown) => ({ ...record('t'), timestamp });

  it('quarantines times that are no date, stores implausible ones flagged, on every tracker route', async () => {
    for (const timestamp of [9e15, 1e300, -1e16, '+275760-09-13T00:00:00Z', 'soon']) {
      const reply = await server.post('/locations', { location: at(timestamp), device_id: 'time-bad' });
      expect(reply, String(timestamp)).toMatchObject({
        status: 200,
        body: { stored: 0, quarantinedRecords: [{ code: 'INVALID_TIMESTAMP' }] },
      });
    }
    // A device clock in 1999 or two days ahead: kept, with the server's receive time beside it.
    for (const [i, timestamp] of ['1999-12-31T23:59:59Z', new Date(nowMs + 2 * DAY_MS).toISOString()].entries()) {
      const reply = await server.post('/locations', {
        location: { ...at(timestamp), uuid: `clock-${i}` },
        device_id: 'clock',
      });
      expect(reply.body).toMatchObject({ stored: 1 });
    }
    const kept = (await server.admin('/api/devices/clock/locations')).body as {
      clockSuspect?: boolean;
      receivedAt: string;
    }[];
    expect(kept.map((r) => r.clockSuspect)).toEqual([true, true]);
    expect(kept.every((r) => Math.abs(Date.parse(r.receivedAt) - nowMs) < DAY_MS)).toBe(true);
    // Every tracker route gives the same verdicts: a time that is no date is quarantined, an
    // implausible one (a phone clock in 1999) is stored flagged; the request still succeeds.
    const feature = (timestamp: unknown) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2, 1] },
      properties: { timestamp, device_id: 'ov' },
    });
    const osmand = (timestamp: string) =>
      fetch(`${server.url}/osmand?id=osm&lat=1&lon=2&timestamp=${timestamp}`).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    const presets = [
      server.post('/owntracks', { _type: 'location', tst: 1e300, lat: 1, lon: 2, tid: 'ot' }),
      server.post('/owntracks', { _type: 'location', tst: 946684799, lat: 1, lon: 2, tid: 'ot' }),
      server.post('/overland', { locations: [feature(-1e16), feature('1999-12-31T23:59:59Z')] }),
      osmand('9000000000000000'),
      osmand('1999-12-31%2023:59:59'),
    ];
    const replies = await Promise.all(presets);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies[3]!.body).toMatchObject({ stored: 0, quarantinedRecords: [{ code: 'INVALID_TIMESTAMP' }] });
    for (const device of ['ot', 'ov', 'osm']) {
      const quarantined = (await server.admin(`/api/devices/${device}/quarantine`)).body.records;
      expect(
        quarantined.map((r: { code: string }) => r.code),
        device,
      ).toEqual(['INVALID_TIMESTAMP']);
      const stored = (await server.admin(`/api/devices/${device}/locations`)).body;
      expect(
        stored.map((r: { timestamp: string; clockSuspect?: boolean }) => [r.timestamp, r.clockSuspect]),
        device,
      ).toEqual([['1999-12-31T23:59:59.000Z', true]]);
    }
    const edge = await server.post('/locations', {
      location: at(new Date(nowMs + DAY_MS - 1000).toISOString()),
      device_id: 'time-ok',
    });
    expect(edge.body.stored).toBe(1);
    expect(await deviceIds()).toEqual(['clock', 'osm', 'ot', 'ov', 'time-bad', 'time-ok']);
    expect((await server.admin('/api/devices')).status).toBe(200);
  });

  it('refuses a body without any location, a non-string or oversized id, and non-JSON bodies', async () => {
    const cases: [unknown, string][] = [
      [{ device_id: 'x' }, 'NO_LOCATION'],
      [{ location: record('o1'), device_id: { evil: true } }, 'INVALID_DEVICE_ID'],
      [{ location: record('o2'), device_id: 42 }, 'INVALID_DEVICE_ID'],
      [{ location: record('o3'), device_id: 'd'.repeat(4 * 1024 * 1024) }, 'INVALID_DEVICE_ID'],
    ];
    for (const [body, code] of cases)
      expect(await server.post('/locations', body)).toMatchObject({ status: 400, body: { code } });
    // A record without a location, or with an oversized uuid, is one record: quarantined (issue 19).
    const quarantined: [unknown, string][] = [
      [{ location: { uuid: 'u', battery: 1 }, device_id: 'q' }, 'NO_LOCATION'],
      [{ location: { ...record('o4'), uuid: 'u'.repeat(300) }, device_id: 'q' }, 'TEXT_TOO_LONG'],
    ];
    for (const [body, code] of quarantined)
      expect(await server.post('/locations', body)).toMatchObject({
        status: 200,
        body: { stored: 0, quarantinedRecords: [{ code }] },
      });
    const formBody = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'device_id=x&latitude=1&longitude=2',
    });
    expect(formBody.status).toBe(415);
    const noType = await fetch(`${server.url}/locations`, { method: 'POST', body: new Blob(['{"device_id":"x"}']) });
    expect(noType.status).toBe(415);
    expect(await deviceIds()).not.toContain('x');
  });

  it('refuses a key that would poison a prototype however it is spelt or coded, and stores nothing', async () => {
    const fields = JSON.stringify(record('poison')).slice(1, -1);
    const members = [
      '"__proto__":{"admin":true}',
      '"\\u005f_proto__":{"admin":true}',
      '"constructor":{"prototype":{}}',
    ];
    for (const member of members) {
      const text = `{"device_id":"poisoned","location":[{${fields},${member}}]}`;
      expect((await server.post('/locations', text)).status, member).toBe(400);
      const coded = await fetch(`${server.url}/locations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(text),
      });
      expect(coded.status, `gzip ${member}`).toBe(400);
    }
    expect(await deviceIds()).not.toContain('poisoned');
    // The same words as values, or in a body that is otherwise clean, are data.
    const text = `{"device_id":"unpoisoned","location":[{${fields},"note":"__proto__","extras":{"k":"constructor"}}]}`;
    expect(await server.post('/locations', text)).toMatchObject({ status: 200, body: { stored: 1 } });
  });

  it('refuses JSON nested deeper than the cap with 400 TOO_DEEP, never a 500', async () => {
    for (const depth of [5000, 100_000]) {
      const deep = `{"device_id":"deep","location":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const reply = await server.post('/locations', deep);
      expect(reply, `depth ${depth}`).toMatchObject({ status: 400, body: { code: 'TOO_DEEP' } });
    }
    const objects = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    expect((await server.post('/auth/register', objects)).status).toBe(400);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('refuses a malformed multipart log upload with 400, not 500', async () => {
    const bodies = [
      '--xyz\r\nContent-Disposition: form-data; name="log"; filename="a"\r\n\r\nunterminated',
      'not multipart at all',
      '--xyz\r\nbroken header line\r\n\r\n--xyz--',
    ];
    for (const body of bodies) {
      const reply = await fetch(`${server.url}/api/logs`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        body,
      });
      expect(reply.status, body).toBe(400);
    }
    const missingBoundary = await fetch(`${server.url}/api/logs`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(missingBoundary.status).toBeLessThan(500);
    expect(missingBoundary.status).toBeGreaterThanOrEqual(400);
  });

  it('never answers 500 from admin or export endpoints because of stored data', async () => {
    await rawSql(
      server.storage,
      `INSERT INTO devices (id, model, info, created_at, last_seen, status, records, duplicates, last_latitude, last_longitude, last_recorded_at)
       VALUES (?, NULL, '{}', ?, ?, 'active', 2, 0, 1, 2, ?)`,
      ['legacy', -1e16, 9e15, 9e15],
    );
    for (const [uuid, at, text] of [
      ['l1', 9e15, '{"uuid":"l1"}'],
      ['l2', -1e16, 'not json'],
    ] as const) {
      await rawSql(
        server.storage,
        `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record) VALUES ('legacy', ?, ?, 1, 2, ?, ?)`,
        [uuid, at, nowMs, text],
      );
    }
    const paths = [
      '/api/devices',
      '/api/devices/legacy',
      ...['json', 'geojson', 'gpx', 'csv'].map((format) => `/api/devices/legacy/locations?format=${format}`),
      '/api/devices/legacy/locations?from=1e300',
      '/api/devices/legacy/locations?to=-1e300',
    ];
    for (const path of paths) {
      const reply = await server.admin(path);
      expect(reply.status, path).toBeLessThan(500);
    }
    const device = (await server.admin('/api/devices/legacy')).body;
    expect(device).toMatchObject({ id: 'legacy', createdAt: null, lastSeen: null, lastPosition: { timestamp: null } });
    const json = (await server.admin('/api/devices/legacy/locations')).body as { uuid: string; record: unknown }[];
    expect(json.map((r) => r.record)).toEqual(expect.arrayContaining([null, { uuid: 'l1' }]));
  });
});
