import { startServer, type RunningServer } from '@waypost/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { FLEET_CONFIG_CHANGED, SINK_FORGOTTEN } from '../src/fleet/fleet-log.js';
import { record } from './helpers/client.js';
import { captureLog, type CapturedLog } from './helpers/log-lines.js';
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

  /** Resolves once the receiver has an event of `type` for `device`. */
  const delivered = (device: string, type: string) =>
    receiver.waitFor(1, (r) => {
      if (r.status < 200 || r.status > 299) return false;
      const event = JSON.parse(r.body) as Event;
      return event.device === device && event.type === type;
    });

  /** Each process says in its log when its fleet configuration changed, and when it forgot a deleted sink. */
  const logs = new Map<RunningServer, CapturedLog>();
  /**
   * Resolves with how long, from now, `server` takes to say in its log that its configuration has
   * `sinks` sinks and `geofences` geofences.
   */
  async function configSeen(server: RunningServer, sinks: number, geofences: number): Promise<number> {
    const log = logs.get(server)!;
    const since = log.lines.length;
    const started = Date.now();
    await log.line(
      (l) => l.code === FLEET_CONFIG_CHANGED && l['sinks'] === sinks && l['geofences'] === geofences,
      since,
    );
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
    for (const log of [captureLog(), captureLog()]) {
      const server = await startServer({ ...options, logger: true, logStream: log.stream });
      logs.set(server, log);
    }
    [a, b] = [...logs.keys()] as [RunningServer, RunningServer];
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
    // The other process from its next poll: it says so in its log.
    const hookKnownToB = configSeen(b, 1, 0);
    const hook = await admin(a, '/api/webhooks', 'POST', { url: receiver.url, events: ['location', 'geofence.enter'] });
    expect(hook.status).toBe(201);
    // The process whose API added it writes its events from the next upload on.
    await upload(a, 'via-a');
    await receiver.waitFor(1);
    expect(receiver.accepted<Event>()[0]!.device).toBe('via-a');
    expect(await hookKnownToB).toBeLessThan(10 * POLL_MS);
    await upload(b, 'via-b');
    await delivered('via-b', 'location');
    expect(receiver.accepted<Event>().some((e) => e.device === 'before')).toBe(false);

    const fenceKnownToB = configSeen(b, 1, 1);
    expect(
      (await admin(a, '/api/geofences', 'POST', { identifier: 'g', latitude: 20, longitude: 10, radius: 500 })).status,
    ).toBe(201);
    expect(await fenceKnownToB).toBeLessThan(10 * POLL_MS);
    await upload(b, 'fenced', 20);
    await delivered('fenced', 'geofence.enter');

    // Deleted through A: what B still wrote for it meanwhile is removed once every process knows
    // (each says when it has removed what was left for it).
    const forgotten = [a, b].map((server) => {
      const log = logs.get(server)!;
      return log.line((l) => l.code === SINK_FORGOTTEN && l['sink'] === hook.body.id, log.lines.length);
    });
    expect((await admin(a, `/api/webhooks/${hook.body.id}`, 'DELETE')).status).toBe(200);
    await upload(b, 'after-delete');
    await Promise.all(forgotten);
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const left = await client.query(`SELECT COUNT(*) AS n FROM "${schema}".outbox WHERE sink_id = $1`, [
        hook.body.id,
      ]);
      expect(Number(left.rows[0].n)).toBe(0);
    } finally {
      await client.end();
    }
  });
});
