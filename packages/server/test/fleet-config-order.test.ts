import { startServer, type RunningServer } from '@waypost/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { record } from './helpers/client.js';

// Issue 41: a geofence change waits for no upload, yet every upload committed after it is decided
// with it. An upload for `truck` is held inside its transaction (another session holds the
// device's row, as a second upload of the same device would) after it read the configuration; a
// fence is created around its position meanwhile, and answered; the upload, committed after that,
// must have entered the fence.
describe('a fleet change made while an upload is deciding (PostgreSQL)', () => {
  const schema = freshSchemaName();
  let server: RunningServer;
  let sql: pg.Client;
  beforeAll(async () => {
    server = await startServer({ port: 0, adminToken: 'admin-secret', databaseUrl: `${PG_URL}?schema=${schema}` });
    sql = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await server?.close();
    await dropSchema(schema);
  });

  const call = (path: string, method: string, body: unknown) =>
    fetch(server.url + path, {
      method,
      headers: { authorization: 'Bearer admin-secret', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  let n = 0;
  const upload = (latitude: number) =>
    call('/locations', 'POST', {
      location: record(`r${++n}`, latitude, 10, new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString()),
      device_id: 'truck',
    });

  it('is answered while the upload waits, and the upload committed after it enters the new fence', async () => {
    expect((await upload(0)).status).toBe(200); // registered, outside anything
    const [{ pid }] = (await sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
    await sql.query('BEGIN');
    await sql.query(`SELECT id FROM devices WHERE id = 'truck' FOR UPDATE`);
    const held = upload(20);
    // The upload's transaction has read the configuration and waits for the device's row.
    await expect
      .poll(async () => {
        const waiting = await sql.query(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [
          pid,
        ]);
        return waiting.rowCount;
      })
      .toBe(1);
    const fence = await call('/api/geofences', 'POST', {
      identifier: 'yard',
      latitude: 20,
      longitude: 10,
      radius: 500,
    });
    expect(fence.status).toBe(201);
    await sql.query('COMMIT');
    expect((await held).status).toBe(200);
    const history = await fetch(`${server.url}/api/devices/truck/fleet-events`, {
      headers: { authorization: 'Bearer admin-secret' },
    });
    const { events } = (await history.json()) as { events: { type: string }[] };
    expect(events.map((e) => e.type).filter((t) => t.startsWith('geofence.'))).toEqual(['geofence.enter']);
  });
});
