// A resent upload quarantines its invalid record once (issue 29): the same batch with one record at
// latitude 91, sent three times (an SDK retry after a lost answer does exactly that), keeps one
// quarantine row, and the device's counter, its ledger and the metric say 1, on both databases.
// Each request still gets its verdict. Identity is the record's uuid, or for a record without one
// the uuid the server derives from its content; per device. A database that over-counted before
// is mended by the migration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@waypost/server';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { rawSql } from './helpers/raw-sql.js';
import { openStorage } from './helpers/open-storage.js';
import { migrate, QUARANTINE_IDENTITY_VERSION } from '../src/db/migrations.js';

const numbered = (uuid: string, sequence: number, latitude = 48.1) => ({ ...record(uuid, latitude), sequence });

describe.each(backends)('quarantine of a resent record on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const quarantinedMetric = async () => {
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).text();
    const value = /^waypost_records_quarantined_total (\d+)$/m.exec(text)?.[1];
    expect(value, 'waypost_records_quarantined_total in /metrics').toBeDefined();
    return Number(value);
  };
  const kept = async (device: string) =>
    (await server.admin(`/api/devices/${device}/quarantine`)).body.records as { uuid: string | null; code: string }[];

  it('the same batch sent 3 times keeps one row; counter, ledger and metric count 1; each reply says why', async () => {
    const before = await quarantinedMetric();
    const body = {
      location: [numbered('ok-1', 1), numbered('bad-1', 2, 91), numbered('ok-2', 3)],
      device_id: 'resend',
    };
    for (let attempt = 1; attempt <= 3; attempt++) {
      const reply = await server.post('/locations', body);
      expect(reply.status).toBe(200);
      expect(reply.body, `attempt ${attempt}`).toMatchObject({
        stored: attempt === 1 ? 2 : 0,
        duplicates: attempt === 1 ? 0 : 2,
        quarantined: 1,
        quarantinedRecords: [{ uuid: 'bad-1', code: 'OUT_OF_RANGE' }],
      });
    }
    expect(await kept('resend')).toEqual([expect.objectContaining({ uuid: 'bad-1', code: 'OUT_OF_RANGE' })]);
    expect((await server.admin('/api/devices/resend')).body).toMatchObject({ records: 2, quarantined: 1 });
    expect((await server.admin('/api/devices/resend/ledger')).body).toMatchObject({
      highestSequence: 3,
      received: 2,
      quarantined: 1,
      missing: 0,
    });
    expect((await quarantinedMetric()) - before).toBe(1);
  });

  it('the same batch sent 3 times at once (one group commit) is kept and counted once', async () => {
    const before = await quarantinedMetric();
    const body = { location: [numbered('c-ok', 1), numbered('c-bad', 2, -95)], device_id: 'resend-together' };
    const replies = await Promise.all([1, 2, 3].map(() => server.post('/locations', body)));
    for (const reply of replies) expect(reply.body).toMatchObject({ quarantined: 1 });
    expect(await kept('resend-together')).toHaveLength(1);
    expect((await server.admin('/api/devices/resend-together')).body).toMatchObject({ records: 1, quarantined: 1 });
    expect((await quarantinedMetric()) - before).toBe(1);
  });

  it('a record without a uuid is known by its content: the same one once, a different one again', async () => {
    const bad = (latitude: number) => ({ lat: latitude, lng: 11.5, at: '2024-05-01T10:00:00.000Z' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await server.post('/locations', { location: [bad(91)], device_id: 'no-uuid' });
      expect(reply.body).toMatchObject({ quarantined: 1, quarantinedRecords: [{ uuid: null, code: 'OUT_OF_RANGE' }] });
    }
    expect(await kept('no-uuid')).toHaveLength(1);
    await server.post('/locations', { location: [bad(92)], device_id: 'no-uuid' });
    expect(await kept('no-uuid')).toHaveLength(2);
    expect((await server.admin('/api/devices/no-uuid')).body).toMatchObject({ quarantined: 2 });
  });

  it('the same uuid from two devices is two records, one per device', async () => {
    for (const device of ['twin-a', 'twin-b'])
      await server.post('/locations', { location: [record('same-uuid', 91)], device_id: device });
    expect(await kept('twin-a')).toHaveLength(1);
    expect(await kept('twin-b')).toHaveLength(1);
  });
});

describe.each(backends)('the migration on $name', (backend) => {
  it('keeps one of the rows an earlier version quarantined again, and recounts the device', async () => {
    const storage = await backend.create();
    try {
      // The schema as it was before (no identity, no unique key), with a resend kept three times.
      const before = await openStorage(storage.options);
      await migrate(before, QUARANTINE_IDENTITY_VERSION - 1);
      await before.close();
      await rawSql(
        storage.options,
        `INSERT INTO devices (id, info, created_at, status, records, duplicates, quarantined) VALUES ('old', '{}', 1, 'active', 0, 0, 4)`,
      );
      for (const uuid of ['dup', 'dup', 'dup', null])
        await rawSql(
          storage.options,
          `INSERT INTO quarantine (device_id, uuid, code, message, raw, received_at) VALUES ('old', ?, 'OUT_OF_RANGE', 'latitude 91', '{}', 1)`,
          [uuid],
        );
      const second = await startServer({ port: 0, adminToken: 'admin-secret', ...storage.options });
      try {
        const get = async (path: string) =>
          (await fetch(second.url + path, { headers: { authorization: 'Bearer admin-secret' } })).json();
        expect(await get('/api/devices/old')).toMatchObject({ quarantined: 2 });
        const { records } = (await get('/api/devices/old/quarantine')) as { records: { uuid: string | null }[] };
        expect(records.map((r) => r.uuid).sort()).toEqual(['dup', null]);
        // And from now on the unique key holds: the resend is not kept a fourth time.
        const reply = await fetch(`${second.url}/locations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ location: [record('dup', 91)], device_id: 'old' }),
        });
        expect(reply.status).toBe(200);
        expect(await get('/api/devices/old')).toMatchObject({ quarantined: 2 });
      } finally {
        await second.close();
      }
    } finally {
      await storage.drop();
    }
  });
});
