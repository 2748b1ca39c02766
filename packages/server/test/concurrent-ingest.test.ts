import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

// Uploads that arrive together share one database transaction (group commit); each must still be
// answered, stored and counted as if it had been alone.
describe.each(backends)('concurrent uploads on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const metric = async (name: string): Promise<number> => {
    const text = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    }).then((r) => r.text());
    return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  };
  const device = async (id: string) => (await server.admin(`/api/devices/${id}`)).body;
  const batch = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => record(`${prefix}-${i}`, 48 + i / 100, 11, `2024-05-01T10:0${i}:00.000Z`));

  it('answers each request for itself: a blocked device is refused while the others are stored', async () => {
    await server.post('/locations', { location: record('before'), device_id: 'together-blocked' });
    await server.admin('/api/devices/together-blocked/block', { method: 'POST' });
    const storedBefore = await metric('waypost_records_stored_total');
    const replies = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        server.post('/locations', { location: batch(`t${i}`, 3), device_id: `together-${i}` }),
      ),
      server.post('/locations', { location: batch('refused', 2), device_id: 'together-blocked' }),
    ]);
    expect(replies.slice(0, 8)).toEqual(
      Array.from({ length: 8 }, () => ({ status: 200, body: { success: true, stored: 3, duplicates: 0 } })),
    );
    expect(replies[8]).toMatchObject({ status: 403, body: { code: 'DEVICE_BLOCKED' } });
    expect(await metric('waypost_records_stored_total')).toBe(storedBefore + 24);
    expect(await device('together-blocked')).toMatchObject({ records: 1 });
    expect(await device('together-5')).toMatchObject({
      records: 3,
      duplicates: 0,
      lastPosition: { latitude: 48.02, longitude: 11, timestamp: '2024-05-01T10:02:00.000Z' },
    });
  });

  it('stores a uuid sent in several requests at once once, and counts the rest as duplicates', async () => {
    const body = { location: batch('same', 5), device_id: 'together-same' };
    const replies = await Promise.all(Array.from({ length: 8 }, () => server.post('/locations', body)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.reduce((sum, r) => sum + r.body.stored, 0)).toBe(5);
    expect(replies.reduce((sum, r) => sum + r.body.duplicates, 0)).toBe(35);
    expect(await device('together-same')).toMatchObject({ records: 5, duplicates: 35 });
    const rows = (await server.admin('/api/devices/together-same/locations')).body as { uuid: string }[];
    expect(rows.map((r) => r.uuid).sort()).toEqual(['same-0', 'same-1', 'same-2', 'same-3', 'same-4']);
  });

  it('puts queued commands on exactly one of the replies to requests arriving together', async () => {
    await server.post('/locations', { location: record('cmd-0'), device_id: 'together-cmd' });
    for (const command of ['start', ['changePace', false]]) {
      await server.admin('/api/devices/together-cmd/commands', { method: 'POST', body: { command } });
    }
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.post('/locations', { location: record(`cmd-${i + 1}`), device_id: 'together-cmd' }),
      ),
    );
    const carried = replies.filter((r) => r.body.background_geolocation !== undefined);
    expect(carried.map((r) => r.body.background_geolocation)).toEqual([[['start'], ['changePace', false]]]);
    const commands = (await server.admin('/api/devices/together-cmd/commands')).body as { status: string }[];
    expect(commands.map((c) => c.status)).toEqual(['delivered', 'delivered']);
  });

  it('fails only the request the database rejects, not the ones sharing its transaction', async () => {
    // PostgreSQL text cannot hold a NUL character; SQLite stores it.
    const replies = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        server.post('/locations', { location: record(`ok-${i}`), device_id: 'together-db' }),
      ),
      server.post('/locations', { location: record('nul-\u0000-uuid'), device_id: 'together-db' }),
    ]);
    expect(replies.slice(0, 6).map((r) => [r.status, r.body.stored])).toEqual(Array(6).fill([200, 1]));
    expect(replies[6]!.status).toBe(backend.name === 'postgres' ? 500 : 200);
    expect(await device('together-db')).toMatchObject({ records: backend.name === 'postgres' ? 6 : 7 });
  });
});
