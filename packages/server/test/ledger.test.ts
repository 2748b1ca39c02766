// The delivery ledger (issue 19), through the server's API on both databases: records carry a
// per-device `sequence`; drops are reported with the Waypost-Dropped header; every sequence number
// up to the highest is received, quarantined, reported dropped, or missing, and a late range closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

const record = (sequence: number, extra: Record<string, unknown> = {}) => ({
  uuid: `seq-${sequence}`,
  sequence,
  timestamp: new Date(Date.now() - 60_000 + sequence).toISOString(),
  coords: { latitude: 45.5, longitude: -73.56 },
  ...extra,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => record(from + i));

describe.each(backends)('the delivery ledger on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const upload = (device: string, records: unknown[], dropped?: string) =>
    server.post('/locations', { location: records, device_id: device }, dropped ? { 'waypost-dropped': dropped } : {});
  const ledger = async (device: string) => (await server.admin(`/api/devices/${device}/ledger`)).body;

  it('a gap shows as missing until the late range arrives, then closes', async () => {
    await upload('gap', [...range(1, 3), ...range(6, 10)]);
    expect(await ledger('gap')).toMatchObject({
      highestSequence: 10,
      received: 8,
      duplicates: 0,
      quarantined: 0,
      dropped: { ttl: 0, cap: 0, destroyed: 0 },
      expired: 0,
      expiredRanges: [],
      missing: 2,
      missingRanges: [[4, 5]],
      silentPeriods: [],
    });
    await upload('gap', range(4, 5)); // the device was offline for them
    expect(await ledger('gap')).toMatchObject({ received: 10, missing: 0, missingRanges: [] });
  });

  it('reported drops (ttl, cap, destroyed) are not missing, a received number is never counted dropped, quarantine counts', async () => {
    await upload(
      'drops',
      [...range(1, 2), ...range(9, 12), record(13, { coords: { latitude: 91, longitude: 0 } })],
      'ttl=3-5;cap=6-7;destroyed=8,11-12',
    );
    expect(await ledger('drops')).toMatchObject({
      highestSequence: 13,
      received: 6,
      duplicates: 0,
      quarantined: 1,
      dropped: { ttl: 3, cap: 2, destroyed: 1 },
      expired: 0,
      expiredRanges: [],
      missing: 0,
      missingRanges: [],
      silentPeriods: [],
    });
  });

  it('a device with nothing else to send reports its drops with an empty batch', async () => {
    await upload('empty', range(1, 1));
    await upload('empty', [], 'cap=2-40');
    expect(await ledger('empty')).toMatchObject({ highestSequence: 40, dropped: { cap: 39 }, missing: 0 });
  });

  it('hostile headers are ignored, never fail the upload; a huge range is counted, not enumerated', async () => {
    for (const header of ['lost=1', 'ttl=9-5', 'ttl=' + '1,'.repeat(3000), 'cap=1-2-3', 'ttl=1;;']) {
      expect((await upload('hostile', range(1, 1), header)).status).toBe(200);
    }
    expect(await ledger('hostile')).toMatchObject({ highestSequence: 1, dropped: { ttl: 0, cap: 0, destroyed: 0 } });
    await upload('hostile', range(2, 2), 'destroyed=3-9000000000000000');
    expect(await ledger('hostile')).toMatchObject({
      highestSequence: 9e15,
      dropped: { destroyed: 9e15 - 2 },
      missing: 0,
    });
  });

  it('records without a sequence (a foreign client) leave the ledger empty; the admin token is needed', async () => {
    await server.post('/locations', { location: { ...record(1), sequence: 'one' }, device_id: 'plain' });
    expect(await ledger('plain')).toMatchObject({ highestSequence: 0, received: 0, missing: 0 });
    expect((await fetch(`${server.url}/api/devices/plain/ledger`)).status).toBe(401);
    expect((await server.admin('/api/devices/nobody/ledger')).status).toBe(404);
  });
});

describe.each(backends)("the fleet's ledger in /metrics on $name", (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const gauges = async () => {
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    return {
      devices: value('waypost_ledger_devices'),
      incomplete: value('waypost_ledger_devices_incomplete'),
      missing: value('waypost_ledger_missing'),
    };
  };

  it('sums every device: missing numbers and incomplete devices, until late ranges close them', async () => {
    await server.post('/locations', { location: [...range(1, 3), ...range(7, 8)], device_id: 'fleet-a' });
    await server.post('/locations', { location: range(1, 4), device_id: 'fleet-b' });
    await server.post('/locations', {
      location: { uuid: 'plain', timestamp: new Date().toISOString(), coords: { latitude: 1, longitude: 1 } },
      device_id: 'fleet-foreign',
    });
    expect(await gauges()).toEqual({ devices: 2, incomplete: 1, missing: 3 });
    await server.post('/locations', { location: range(4, 6), device_id: 'fleet-a' });
    expect(await gauges()).toEqual({ devices: 2, incomplete: 0, missing: 0 });
  });
});
