import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { record } from './helpers/client.js';
import { buildServer, spawnServerScript, type ServerProcess } from './helpers/spawn-server.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

// Issue 30: two server processes on one PostgreSQL schema decide one fleet. A geofence or sink
// changed through A counts for the very next upload, whichever process takes it. The processes
// poll for changes only once a minute here: nothing but the configuration's version, read by every
// ingest transaction, can tell B about a change made through A a few milliseconds earlier.

const SCRIPT = fileURLToPath(new URL('./fixtures/fleet-server-process.mjs', import.meta.url));

interface FleetEvent {
  id: string;
  type: string;
  device: string;
  data: { geofence?: { identifier: string } };
}

describe('one fleet across two server processes (one PostgreSQL schema)', () => {
  const schema = freshSchemaName();
  const receiver = new WebhookReceiver();
  let a: ServerProcess;
  let b: ServerProcess;
  let sql: pg.Client;

  beforeAll(async () => {
    buildServer();
    await receiver.start();
    const options = { databaseUrl: `${PG_URL}?schema=${schema}`, deliveryPollMs: 60_000, poolSize: 4 };
    a = await spawnServerScript(SCRIPT, [JSON.stringify(options)], 'pipe');
    b = await spawnServerScript(SCRIPT, [JSON.stringify(options)], 'pipe');
    sql = new pg.Client({ connectionString: PG_URL });
    await sql.connect();
    await sql.query(`SET search_path TO "${schema}"`);
  }, 60_000); // a build and two processes starting, on a loaded machine
  afterAll(async () => {
    await sql?.end();
    for (const server of [a, b].filter(Boolean))
      await new Promise((resolve) => (server.child.once('exit', resolve), server.child.stdin!.end()));
    await receiver.stop();
    await dropSchema(schema);
  });

  const call = async (server: ServerProcess, path: string, method: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        authorization: 'Bearer admin-secret',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const fence = (server: ServerProcess, identifier: string, latitude: number) =>
    call(server, '/api/geofences', 'POST', { identifier, latitude, longitude: 10, radius: 200 });

  let second = 0;
  /** One record of `device` at `latitude` (longitude 10), a second after the previous one, through `server`. */
  const upload = (server: ServerProcess, device: string, latitude: number) => {
    const at = new Date(Date.UTC(2026, 0, 1) + ++second * 1000).toISOString();
    return call(server, '/locations', 'POST', {
      location: record(`${device}-${second}`, latitude, 10, at),
      device_id: device,
    });
  };
  /** The device's geofence events as the history kept them (whichever process is asked). */
  const fenceEvents = async (device: string) => {
    const { events } = (await call(a, `/api/devices/${device}/fleet-events`, 'GET')) as { events: FleetEvent[] };
    return events
      .filter((e) => e.type.startsWith('geofence.'))
      .map((e) => ({ type: e.type, fence: e.data.geofence!.identifier, id: e.id }));
  };

  it('a fence created through A: uploads inside it through A, B, A make one enter, with one id', async () => {
    await upload(b, 'd1', 0); // B has read its configuration long before the change
    await fence(a, 'g1', 20);
    await upload(a, 'd1', 20);
    await upload(b, 'd1', 20);
    await upload(a, 'd1', 20);
    const events = await fenceEvents('d1');
    expect(events.map((e) => `${e.type} ${e.fence}`)).toEqual(['geofence.enter g1']);
  });

  it('inside through A, inside through B, outside through A: one enter and one exit', async () => {
    await fence(a, 'g2', 30);
    await upload(a, 'd2', 30);
    await upload(b, 'd2', 30); // B must keep the presence A decided, not erase it
    await upload(a, 'd2', 0);
    expect((await fenceEvents('d2')).map((e) => `${e.type} ${e.fence}`)).toEqual([
      'geofence.enter g2',
      'geofence.exit g2',
    ]);
  });

  it('a fence deleted through A gets no enter decided by B', async () => {
    await fence(a, 'g3', 40);
    await upload(b, 'd3-before', 40);
    expect((await fenceEvents('d3-before')).map((e) => `${e.type} ${e.fence}`)).toEqual(['geofence.enter g3']);
    await call(a, '/api/geofences/g3', 'DELETE');
    await upload(b, 'd3-after', 40);
    await upload(a, 'd3-after', 40);
    expect(await fenceEvents('d3-after')).toEqual([]);
  });

  it('a sink created through A gets the next upload taken by B; deleted through A, B writes it nothing', async () => {
    const hook = await call(a, '/api/webhooks', 'POST', { url: receiver.url, events: ['location'] });
    await upload(b, 'd4', 0);
    // Committed before B answered: waiting in the outbox (A may hold the sink's delivery lease
    // until its next poll), or already delivered (B held it). Read in that order, no race.
    const waiting = await sql.query(`SELECT COUNT(*) AS n FROM outbox WHERE sink_id = $1 AND device_id = 'd4'`, [
      hook['id'],
    ]);
    const delivered = receiver.accepted<FleetEvent>().filter((e) => e.device === 'd4');
    expect(Number(waiting.rows[0].n) + delivered.length).toBe(1);
    await call(a, `/api/webhooks/${String(hook['id'])}`, 'DELETE');
    await upload(b, 'd4', 0);
    const left = await sql.query(`SELECT COUNT(*) AS n FROM outbox WHERE sink_id = $1`, [hook['id']]);
    expect(Number(left.rows[0].n)).toBe(0);
  });
});
