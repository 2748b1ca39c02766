// The OsmAnd protocol as Traccar documents it (https://www.traccar.org/osmand/): every parameter
// kept, times without an offset in UTC whatever the server's time zone, HEAD answered without
// ingesting, a retried request without a timestamp stored once, and a verdict per record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { JSON_TYPE, quarantineOf, send, storedOf } from './helpers/trackers.js';

describe.each(backends)('OsmAnd on $name', (backend) => {
  let server: TestServer;
  let clock = Date.UTC(2024, 4, 1, 12);
  const zone = process.env.TZ;
  beforeAll(async () => {
    // A server far from UTC: a time without an offset must not be read in its zone.
    process.env.TZ = 'America/Los_Angeles';
    server = await startTestServer(backend, { now: () => clock });
  });
  afterAll(async () => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    await server.stop();
  });

  it('reads yyyy-MM-dd HH:mm:ss and ISO without a zone as UTC', async () => {
    await send(server, 'GET', '/osmand?id=zone&lat=1&lon=2&timestamp=2024-04-30%2009:10:11');
    await send(server, 'GET', '/osmand?id=zone&lat=1&lon=2.1&timestamp=2024-04-30T09:10:12');
    expect((await storedOf(server, 'zone')).map((r) => r.timestamp)).toEqual([
      '2024-04-30T09:10:11.000Z',
      '2024-04-30T09:10:12.000Z',
    ]);
  });

  it('answers HEAD without storing anything', async () => {
    const head = await send(server, 'HEAD', '/osmand?id=head&lat=1&lon=2&timestamp=1714557600');
    expect(head.status).toBe(200);
    expect(await storedOf(server, 'head')).toEqual([]);
  });

  it('stores a request without a timestamp once, however often it is retried', async () => {
    const path = '/osmand?id=retry&lat=48.1&lon=11.5&speed=10';
    const first = await send(server, 'GET', path);
    clock += 30_000;
    const soon = await send(server, 'GET', path);
    clock += 30_000;
    const again = await send(server, 'GET', path);
    expect([first.body, soon.body, again.body]).toEqual([
      { success: true, stored: 1, duplicates: 0 },
      { success: true, stored: 0, duplicates: 1 },
      { success: true, stored: 0, duplicates: 1 },
    ]);
    const rows = await storedOf(server, 'retry');
    expect(rows.map((r) => r.timestamp)).toEqual([new Date(clock - 60_000).toISOString()]);
  });

  it('a stationary tracker repeating the same query without a timestamp keeps a point per report, each retry once', async () => {
    // The same query every 3 minutes (a tracker standing still), each retried once 20 s later.
    const path = '/osmand?id=stationary&lat=48.2&lon=11.6&accuracy=12';
    const start = clock;
    const replies = [];
    for (let report = 0; report < 3; report++) {
      clock = start + report * 180_000;
      replies.push((await send(server, 'GET', path)).body);
      clock += 20_000;
      replies.push((await send(server, 'GET', path)).body);
    }
    expect(replies.map((r) => [r.stored, r.duplicates])).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
    // Each point at its arrival: the tracker's time of report.
    expect((await storedOf(server, 'stationary')).map((r) => r.timestamp).sort()).toEqual(
      [0, 1, 2].map((report) => new Date(start + report * 180_000).toISOString()),
    );
  });

  it('takes heading as bearing and keeps every other parameter as an attribute, bounded', async () => {
    const query =
      'id=attrs&lat=1&lon=2&timestamp=1714557600&heading=45&hdop=1.2&mock=true&alarm=sos&driverUniqueId=D-17' +
      '&cell=257,02,16,2224&wifi=00-14-22-01-23-45,-80&valid=1';
    expect((await send(server, 'GET', `/osmand?${query}`)).body.stored).toBe(1);
    const [row] = await storedOf(server, 'attrs');
    expect(row!.record.coords.heading).toBe(45);
    expect(row!.record.extras).toEqual({
      source: 'osmand',
      hdop: 1.2,
      mock: true,
      alarm: 'sos',
      driverUniqueId: 'D-17',
      cell: '257,02,16,2224',
      wifi: '00-14-22-01-23-45,-80',
      valid: 1,
    });
    const many = Array.from({ length: 70 }, (_, i) => `p${i}=${i === 0 ? 'x'.repeat(5000) : i}`).join('&');
    await send(server, 'POST', '/osmand', `id=bounded&lat=1&lon=2&timestamp=1714557600&${many}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const [bounded] = await storedOf(server, 'bounded');
    const { source, attributes_dropped: dropped, ...kept } = bounded!.record.extras;
    expect([source, Object.keys(kept).length, dropped, kept.p0.length]).toEqual(['osmand', 50, 20, 200]);
  });

  it('quarantines the one bad item of a traccar-client-sdk JSON array and stores the rest', async () => {
    const items = [
      { id: 'sdk', lat: 1, lon: 2, timestamp: 1714557600, speed: 10 },
      { id: 'sdk', lat: 'north', lon: 2, timestamp: 1714557660 },
    ];
    const reply = await send(server, 'POST', '/osmand', JSON.stringify(items), JSON_TYPE);
    expect(reply).toMatchObject({
      status: 200,
      body: { stored: 1, quarantined: 1, quarantinedRecords: [{ uuid: null, code: 'INVALID_TYPE' }] },
    });
    expect((await storedOf(server, 'sdk'))[0]!.record.coords.speed).toBeCloseTo(5.14444, 5);
    expect((await quarantineOf(server, 'sdk')).map((r) => JSON.parse(r.raw).lat)).toEqual(['north']);
  });
});
