import { startServer, type RunningServer } from '@waypost/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { record } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const POLL_MS = 200;

interface Event {
  type: string;
  device: string;
}

describe('sinks and geofences changed through another process (two servers, one PostgreSQL)', () => {
  const schema = freshSchemaName();
  const receiver = new WebhookReceiver();
  let a: RunningServer;
  let b: RunningServer;
  const admin = (server: RunningServer, path: string, method: string, body?: unknown) =>
    fetch(server.url + path, {
      method,
      headers: {
        authorization: 'Bearer admin-secret',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id: string } }));
  let n = 0;
  const upload = (server: RunningServer, device: string, latitude = 10) =>
    fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: record(`u${n++}`, latitude, 10, new Date().toISOString()), device_id: device }),
    });

  /** Uploads to `server` every 50 ms until an event of `type` for `device` arrives; the time it took. */
  async function untilSeen(server: RunningServer, device: string, type: string, latitude?: number): Promise<number> {
    const started = Date.now();
    const seen = () => receiver.accepted<Event>().some((e) => e.device === device && e.type === type);
    while (!seen()) {
      if (Date.now() - started > 20 * POLL_MS) throw new Error(`no ${type} of ${device}`);
      await upload(server, device, latitude);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Date.now() - started;
  }

  beforeAll(async () => {
    await receiver.start();
    const options = {
      port: 0,
      adminToken: 'admin-secret',
      databaseUrl: `${PG_URL}?schema=${schema}`,
      deliveryPollMs: POLL_MS,
      poolSize: 4,
    };
    a = await startServer(options);
    b = await startServer(options);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await receiver.stop();
    await dropSchema(schema);
  });

  it('is known at once where it was changed, and within a poll or two everywhere else', async () => {
    const first = await upload(b, 'before');
    expect(first.status, await first.text()).toBe(200);
    const hook = await admin(a, '/api/webhooks', 'POST', {
      url: receiver.url,
      events: ['location', 'geofence.enter'],
    });
    expect(hook.status).toBe(201);
    // The process whose API added it writes its events from the next upload on.
    await upload(a, 'via-a');
    await receiver.waitFor(1);
    expect(receiver.accepted<Event>()[0]!.device).toBe('via-a');
    // The other one from its next poll.
    expect(await untilSeen(b, 'via-b', 'location')).toBeLessThan(10 * POLL_MS);
    expect(receiver.accepted<Event>().some((e) => e.device === 'before')).toBe(false);

    expect(
      (await admin(a, '/api/geofences', 'POST', { identifier: 'g', latitude: 20, longitude: 10, radius: 500 })).status,
    ).toBe(201);
    expect(await untilSeen(b, 'fenced', 'geofence.enter', 20)).toBeLessThan(10 * POLL_MS);

    // Deleted through A: what B still wrote for it meanwhile is removed once every process knows.
    expect((await admin(a, `/api/webhooks/${hook.body.id}`, 'DELETE')).status).toBe(200);
    await upload(b, 'after-delete');
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const left = async () =>
        Number(
          (await client.query(`SELECT COUNT(*) AS n FROM "${schema}".outbox WHERE sink_id = $1`, [hook.body.id]))
            .rows[0].n,
        );
      const started = Date.now();
      while ((await left()) > 0) {
        if (Date.now() - started > 20 * POLL_MS) throw new Error('rows of a deleted sink stayed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await client.end();
    }
  });
});
