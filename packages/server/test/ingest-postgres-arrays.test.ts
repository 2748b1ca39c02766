import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float8Array, int4Array, int8Array, textArray } from '../src/store/pg-arrays.js';
import { backends, PG_URL } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

// PostgreSQL's ingest passes a group's rows as one binary array per column (store/pg-arrays.ts,
// store/insert-with-totals.ts): whatever a string holds, it comes back as it went.
const postgres = backends.find((b) => b.name === 'postgres')!;
const ODD = [
  'plain',
  'a"quote',
  'back\\slash',
  'com,ma',
  '{brace}',
  'NULL',
  ' spaced ',
  'new\nline',
  'é ü 日本 🚚',
  '',
];

describe('PostgreSQL binary arrays', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
  });
  afterAll(async () => client.end());

  const read = async (type: string, param: Buffer | string): Promise<unknown[]> =>
    (await client.query<{ v: unknown }>(`SELECT unnest(CAST($1 AS ${type})) AS v`, [param])).rows.map((r) => r.v);

  it('read back every string (and NULL) exactly, and every number', async () => {
    expect(await read('TEXT[]', textArray([...ODD, null]))).toEqual([...ODD, null]);
    expect(await read('TEXT[]', textArray([]))).toEqual([]);
    // An element given as UTF-8 bytes (a record's text as it arrived) reads back as that text.
    expect(await read('TEXT[]', textArray(['text', Buffer.from('bytes é 日本'), null]))).toEqual([
      'text',
      'bytes é 日本',
      null,
    ]);
    const floats = [48.12345678901234, 0.1 + 0.2, -11.5, 0, 1e-7, null, -180];
    expect(await read('DOUBLE PRECISION[]', float8Array(floats))).toEqual(floats);
    const big = [1_714_557_600_123, null, 7, -1, -4_294_967_297, Number.MAX_SAFE_INTEGER, 0];
    expect(await read('BIGINT[]', int8Array(big))).toEqual(big.map((v) => (v === null ? null : String(v))));
    expect(await read('INTEGER[]', int4Array([1, null, -2_147_483_648]))).toEqual([1, null, -2_147_483_648]);
  });

  it('refuses a number that is not an integer where an integer goes, as a parameter would be', async () => {
    await expect(read('BIGINT[]', int8Array([1, 1.5]))).rejects.toThrow(/bigint/);
    await expect(read('INTEGER[]', int4Array([2 ** 31]))).rejects.toThrow(/integer|range/);
  });
});

describe('PostgreSQL ingest of a group in one statement', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(postgres, { maxRecordsPerRequest: 1000, bodyLimitBytes: 4 * 1024 * 1024 });
  });
  afterAll(async () => server.stop());

  it('stores 600 records with odd uuids, events and text verbatim, a uuid sent twice once', async () => {
    const records = Array.from({ length: 600 }, (_, i) => ({
      ...record(`${ODD[i % ODD.length]}-${i}`, 48 + i / 1000, 11 + i / 1000),
      event: ODD[i % ODD.length],
      extras: { note: `line\nbreak \u2028 "${i}" \\` },
    }));
    const reply = await server.post('/locations', { location: [...records, records[5]], device_id: 'odd"device' });
    expect(reply.body).toMatchObject({ stored: 600, duplicates: 1 });
    const again = await server.post('/locations', { location: records.slice(0, 10), device_id: 'odd"device' });
    expect(again.body).toMatchObject({ stored: 0, duplicates: 10 });
    const schema = new URL(server.storage.databaseUrl!).searchParams.get('schema')!;
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      const rows = await client.query<{ uuid: string; record: string; event: string | null; latitude: number }>(
        `SELECT uuid, record, event, latitude FROM locations WHERE device_id = 'odd"device' ORDER BY id`,
      );
      expect(rows.rows).toHaveLength(600);
      const byUuid = new Map(rows.rows.map((r) => [r.uuid, r]));
      for (const [i, sent] of records.entries()) {
        const row = byUuid.get(sent.uuid)!;
        expect(JSON.parse(row.record)).toMatchObject({ uuid: sent.uuid, extras: sent.extras });
        expect(row.event).toBe(ODD[i % ODD.length]);
        expect(row.latitude).toBe(48 + i / 1000);
      }
      const device = await client.query(`SELECT records, duplicates FROM devices WHERE id = 'odd"device'`);
      expect(device.rows[0]).toEqual({ records: '600', duplicates: '11' });
    } finally {
      await client.end();
    }
  });
});
