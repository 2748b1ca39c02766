// Retention (issue 33), through the server's API on both databases, on the server's injected clock:
// rows past their period are removed in bounded batches (the server's period, or an organization's
// own), the delivery ledger names what retention removed "expired", never missing; deleting a device
// or an organization removes all its data; and the automatic passes run on their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { captureLog } from './helpers/log-lines.js';

const DAY = 24 * 3600 * 1000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

const record = (device: string, sequence: number, at: number, latitude = 45.5) => ({
  uuid: `${device}-${sequence}`,
  sequence,
  timestamp: new Date(at).toISOString(),
  coords: { latitude, longitude: -73.56 },
});
const records = (device: string, from: number, to: number, at: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => record(device, from + i, at + i * 1000));

describe.each(backends)('retention on $name', (backend) => {
  let server: TestServer;
  let clock = T0;
  beforeAll(async () => {
    // Batches of 4: every removal below takes several bounded statements.
    server = await startTestServer(backend, { now: () => clock, retentionDays: 30, retentionBatchSize: 4 });
  });
  afterAll(async () => server.stop());

  const upload = (device: string, body: unknown[]) => server.post('/locations', { location: body, device_id: device });
  const ledger = async (device: string) => (await server.admin(`/api/devices/${device}/ledger`)).body;
  const stored = async (device: string) =>
    (await server.admin(`/api/devices/${device}/locations?limit=100`)).body.map((r: { uuid: string }) => r.uuid);
  const run = async () => (await server.admin('/api/retention/run', { method: 'POST' })).body;

  it('removes what is past the period in bounded batches, and the ledger names it expired, not missing', async () => {
    clock = T0;
    expect((await upload('old', records('old', 1, 10, T0 - 3600_000))).status).toBe(200);
    // Quarantined (latitude 91) on day 0: its sequence number is accounted for as quarantined, then expired.
    expect((await upload('old', [record('old', 11, T0, 91)])).status).toBe(200);
    clock = T0 + 20 * DAY;
    expect((await upload('old', records('old', 12, 14, clock - 60_000))).status).toBe(200);
    expect(await run()).toMatchObject({ locations: 0, quarantine: 0 });

    clock = T0 + 31 * DAY;
    expect(await run()).toMatchObject({ locations: 10, quarantine: 1 });
    expect(await stored('old')).toEqual(['old-12', 'old-13', 'old-14']);
    expect(await ledger('old')).toMatchObject({
      highestSequence: 14,
      received: 3,
      quarantined: 1, // the device's counter of what it ever had quarantined
      expired: 11,
      expiredRanges: [[1, 11]],
      missing: 0,
      missingRanges: [],
    });
    expect((await server.admin('/api/devices/old/quarantine')).body).toMatchObject({ records: [] });
    expect((await server.admin('/api/retention')).body).toMatchObject({
      days: { locations: 30, quarantine: 30, logs: 30, events: 30 },
      lastPass: { at: new Date(clock).toISOString(), removed: { locations: 10, quarantine: 1 } },
    });
  });

  it('goes by the time a location was recorded, never by a later one: a record from a clock years behind goes at the next pass', async () => {
    clock = T0 + 40 * DAY;
    const wrongClock = Date.parse('2020-01-01T00:00:00.000Z');
    expect((await upload('skewed', [record('skewed', 1, wrongClock), record('skewed', 2, clock)])).status).toBe(200);
    expect(await run()).toMatchObject({ locations: 1 });
    expect(await stored('skewed')).toEqual(['skewed-2']);
    expect(await ledger('skewed')).toMatchObject({ received: 1, expired: 1, expiredRanges: [[1, 1]], missing: 0 });
  });

  it('removes rows that share one instant together, however many (a slice never ends where it starts)', async () => {
    clock = T0 + 50 * DAY;
    const instant = clock - 31 * DAY;
    const same = Array.from({ length: 10 }, (_, i) => record('tied', i + 1, instant));
    expect((await upload('tied', same)).status).toBe(200);
    await run();
    expect(await stored('tied')).toEqual([]);
    expect(await ledger('tied')).toMatchObject({ expired: 10, missing: 0 });
  });

  it("follows an organization's own period for its devices, and 0 keeps them for ever", async () => {
    clock = T0 + 100 * DAY;
    const site = (org: string, uuid: string, at: number) =>
      server.post(`/api/site/locations/${org}`, { location: [record(uuid, 1, at)], uuid });
    expect((await site('short', 'short-phone', clock)).status).toBe(200);
    expect((await site('forever', 'forever-phone', clock)).status).toBe(200);
    const put = (org: string, body: unknown) => server.admin(`/api/orgs/${org}/retention`, { method: 'PUT', body });
    expect((await put('short', { days: 7 })).body).toMatchObject({ name: 'short', retentionDays: 7 });
    expect((await put('forever', { days: 0 })).body).toMatchObject({ retentionDays: 0 });
    expect((await put('nobody', { days: 7 })).status).toBe(404);
    expect((await put('short', { days: -1 })).status).toBe(400);
    expect((await put('short', { dayz: 7 })).status).toBe(400);

    clock += 8 * DAY;
    await run();
    expect(await stored('short-phone')).toEqual([]);
    expect(await stored('forever-phone')).toEqual(['forever-phone-1']);
    clock += 400 * DAY;
    await run();
    expect(await stored('forever-phone')).toEqual(['forever-phone-1']);
  });

  // Interleaved as a fleet's uploads arrive: the oldest arrivals go first, a window of rows at a time
  // in the table's order, while most of a window is due; a window mostly kept (an organization that
  // keeps for ever, dense or sparse among the others) and a record that arrived late with an old time
  // are left to the device-by-device pass. Either way, exactly what is due goes.
  it.each([1, 3])(
    'removes an interleaved fleet in arrival order, keeps what an organization keeps (%i kept row per arrival), and catches a late old record',
    async (keptPerStep) => {
      clock += 2000 * DAY;
      await run(); // what earlier tests left is due by now
      const fleet = (name: string) => `${name}-${keptPerStep}`;
      const [a, b, keeper] = [fleet('mixed-a'), fleet('mixed-b'), fleet('keeper')];
      const old = clock - 40 * DAY;
      let kept = 0;
      for (let i = 1; i <= 6; i++) {
        expect((await upload(a, [record(a, i, old + i * 1000)])).status).toBe(200);
        for (let k = 0; k < keptPerStep; k++) {
          kept += 1;
          const body = { location: [record(keeper, kept, old + kept * 1000)], uuid: keeper };
          expect((await server.post(`/api/site/locations/${keeper}-org`, body)).status).toBe(200);
        }
        expect((await upload(b, [record(b, i, old + i * 1000)])).status).toBe(200);
      }
      const put = await server.admin(`/api/orgs/${keeper}-org/retention`, { method: 'PUT', body: { days: 0 } });
      expect(put.status).toBe(200);
      expect((await upload(b, [record(b, 7, clock)])).status).toBe(200);
      expect((await upload(a, [record(a, 7, clock - 50 * DAY)])).status).toBe(200);

      expect(await run()).toMatchObject({ locations: 13 });
      expect(await stored(a)).toEqual([]);
      expect(await stored(b)).toEqual([`${b}-7`]);
      expect(await stored(keeper)).toHaveLength(kept);
      expect(await ledger(a)).toMatchObject({ received: 0, expired: 7, expiredRanges: [[1, 7]], missing: 0 });
      expect(await ledger(b)).toMatchObject({ received: 1, expired: 6, expiredRanges: [[1, 6]], missing: 0 });
      expect(await ledger(keeper)).toMatchObject({ received: kept, expired: 0, missing: 0 });
      expect(await run()).toMatchObject({ locations: 0 });
    },
  );

  it('deleting a device removes all its data; its next upload gets 410', async () => {
    clock = T0 + 600 * DAY;
    expect((await upload('gone', [...records('gone', 1, 9, clock), record('gone', 10, clock, 91)])).status).toBe(200);
    const deleted = await server.admin('/api/devices/gone', { method: 'DELETE' });
    expect(deleted.body).toMatchObject({ status: 'deleted', records: 0 });
    expect(await stored('gone')).toEqual([]);
    expect((await server.admin('/api/devices/gone/quarantine')).body).toMatchObject({ records: [] });
    expect(await ledger('gone')).toMatchObject({ highestSequence: 0, received: 0, expired: 0 });
    expect((await upload('gone', [record('gone', 11, clock)])).status).toBe(410);
  });

  it("deleting an organization removes its devices' data and refuses the org from then on", async () => {
    const site = (uuid: string) =>
      server.post('/api/site/locations/doomed', { location: [record(uuid, 1, clock)], uuid });
    expect((await site('d1')).status).toBe(200);
    expect((await site('d2')).status).toBe(200);
    const deleted = await server.admin('/api/orgs/doomed', { method: 'DELETE' });
    expect(deleted.body).toMatchObject({ name: 'doomed', status: 'deleted', devicesDeleted: 2 });
    expect(await stored('d1')).toEqual([]);
    expect(await stored('d2')).toEqual([]);
    expect((await site('d3')).status).toBe(410);
    expect((await server.admin('/api/orgs/nobody', { method: 'DELETE' })).status).toBe(404);
  });
});

describe('retention runs on its own', () => {
  it('removes what is due without being asked, and logs what it removed with a code', async () => {
    let clock = T0;
    const log = captureLog();
    const server = await startTestServer(backends[0]!, {
      now: () => clock,
      retentionDays: 1,
      retentionIntervalMs: 20,
      logger: true,
      logStream: log.stream,
    });
    try {
      await server.post('/locations', { location: records('auto', 1, 3, T0), device_id: 'auto' });
      clock = T0 + 2 * DAY;
      const removed = log.line((entry) => entry.code === 'RETENTION_REMOVED');
      const line = await Promise.race([
        removed,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('no RETENTION_REMOVED log line within 10 s')), 10_000).unref(),
        ),
      ]);
      expect(line.removed).toMatchObject({ locations: 3 });
    } finally {
      await server.stop();
    }
  });
});
