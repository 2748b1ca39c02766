import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

// Upload bodies are parsed within a budget of bytes (docs/server.md, "Uploads in flight"): 512 KiB
// per commit slot, so 512 KiB on SQLite (one writer) and 2 MiB on PostgreSQL with the default pool
// of 10. Beyond it a body read in full waits to be parsed until an answered upload makes room.

const MiB = 1024 * 1024;
const sqlite = backends.find((b) => b.name === 'sqlite')!;
const postgres = backends.find((b) => b.name === 'postgres')!;

/** An upload body of `device` holding enough SDK records to weigh about `bytes`. */
function bodyOf(device: string, bytes: number): { text: string; records: number } {
  const one = JSON.stringify(record(`${device}-0`)).length + 1;
  const records = Math.floor(bytes / one);
  const location = Array.from({ length: records }, (_, i) =>
    record(`${device}-${i}`, 48 + i / 1e5, 11, new Date(Date.UTC(2024, 4, 1) + i * 1000).toISOString()),
  );
  return { text: JSON.stringify({ location, device_id: device }), records };
}

/** POSTs over a connection of its own; `abort()` closes that connection before the answer. */
function upload(url: string, text: string) {
  let abort = () => {};
  const answer = new Promise<{ status: number; body: { stored?: number } }>((resolve, reject) => {
    const req = httpRequest(
      `${url}/locations`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      },
    );
    req.on('error', reject);
    abort = () => req.destroy();
    req.end(text);
  });
  return { answer, abort: () => abort() };
}

async function metric(server: TestServer, name: string): Promise<number> {
  const text = (await server.admin('/metrics')).text;
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
}

/** Waits (bounded) for a gauge the server sets as uploads arrive: there is no event to await. */
async function gaugeReaches(server: TestServer, name: string, value: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await metric(server, name)) !== value) {
    if (Date.now() > deadline) throw new Error(`${name} never reached ${value}: ${await metric(server, name)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('uploads beyond the parse budget on PostgreSQL (commits held by a lock)', () => {
  let server: TestServer;
  let locker: pg.Client;
  beforeAll(async () => {
    server = await startTestServer(postgres);
    const url = new URL(server.storage.databaseUrl!);
    const schema = url.searchParams.get('schema')!;
    url.searchParams.delete('schema');
    locker = new pg.Client({ connectionString: url.toString() });
    await locker.connect();
    await locker.query(`SET search_path TO "${schema}"`);
  });
  afterAll(async () => {
    await locker.end();
    await server.stop();
  });

  it('parses what commits can take, keeps the rest as bytes, and forgets an upload whose device left', async () => {
    expect((await server.post('/locations', { location: record('first'), device_id: 'held-0' })).status).toBe(200);
    // Another client holds the table (a migration, a long report): the server's commits wait.
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE locations IN EXCLUSIVE MODE');
    const bodies = Array.from({ length: 7 }, (_, i) => bodyOf(`held-${i + 1}`, 0.45 * MiB));
    const first = bodies.slice(0, 4).map((b) => upload(server.url, b.text));
    // Four bodies of 0.45 MiB fit in 2 MiB (a fifth would not): parsed, and waiting for their commit.
    const admitted = bodies.slice(0, 4).reduce((sum, b) => sum + Buffer.byteLength(b.text), 0);
    await gaugeReaches(server, 'waypost_upload_parse_bytes', admitted);
    const later = bodies.slice(4).map((b) => upload(server.url, b.text));
    await gaugeReaches(server, 'waypost_uploads_waiting_to_parse', 3);
    expect(await metric(server, 'waypost_upload_parse_bytes')).toBe(admitted);
    // One device gives up while its body waits: it takes no room and is never stored.
    later[1]!.abort();
    await expect(later[1]!.answer).rejects.toThrow();
    await gaugeReaches(server, 'waypost_uploads_waiting_to_parse', 2);
    await locker.query('COMMIT');
    const answers = await Promise.all([...first, later[0]!, later[2]!].map((u) => u.answer));
    const expected = [0, 1, 2, 3, 4, 6].map((i) => ({ status: 200, stored: bodies[i]!.records }));
    expect(answers.map((a) => ({ status: a.status, stored: a.body.stored }))).toEqual(expected);
    expect((await server.admin('/api/devices/held-3')).body).toMatchObject({ records: bodies[2]!.records });
    expect((await server.admin('/api/devices/held-6')).status).toBe(404);
    expect(await metric(server, 'waypost_upload_parse_bytes')).toBe(0);
    expect(await metric(server, 'waypost_uploads_waiting_to_parse')).toBe(0);
  });
});

describe('uploads beyond the parse budget on SQLite, the default', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(sqlite);
  });
  afterAll(async () => server.stop());

  it('stores every one of many large uploads arriving together, and holds nothing after', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => bodyOf(`many-${i}`, 0.6 * MiB));
    const answers = await Promise.all(bodies.map((b) => upload(server.url, b.text).answer));
    expect(answers.map((a) => [a.status, a.body.stored])).toEqual(bodies.map((b) => [200, b.records]));
    const total = bodies.reduce((sum, b) => sum + b.records, 0);
    expect(await metric(server, 'waypost_records_stored_total')).toBe(total);
    expect(await metric(server, 'waypost_upload_parse_bytes')).toBe(0);
    expect(await metric(server, 'waypost_uploads_waiting_to_parse')).toBe(0);
  });

  it('lets other devices upload while one sends a body larger than the budget slowly', async () => {
    const slow = connect(Number(new URL(server.url).port), '127.0.0.1');
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
    const declared = 2 * MiB; // four times the budget
    slow.write(
      `POST /locations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    slow.write(`{"device_id":"slow","location":[${JSON.stringify(record('slow-0'))}`);
    const other = bodyOf('beside-slow', 0.3 * MiB);
    const answer = await upload(server.url, other.text).answer;
    expect([answer.status, answer.body.stored]).toEqual([200, other.records]);
    slow.destroy();
    expect(await metric(server, 'waypost_upload_parse_bytes')).toBe(0);
  });
});
