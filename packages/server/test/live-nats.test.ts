import { startServer, type RunningServer } from '@waypost/server';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { LIVE_FEED_SUBSCRIBED } from '../src/live/nats-feed.js';
import { record } from './helpers/client.js';
import { openLiveFeed } from './helpers/live-feed.js';

const NATS_URL = 'nats://127.0.0.1:4222';

/** A server's log, with a promise for the line saying its live-feed subscription is in place. */
function subscribedLog() {
  let subscribed!: () => void;
  const done = new Promise<void>((resolve) => (subscribed = resolve));
  const stream = {
    write(line: string) {
      if ((JSON.parse(line) as { code?: string }).code === LIVE_FEED_SUBSCRIBED) subscribed();
    },
  };
  return { stream, subscribed: done };
}

describe('the live feed between two processes through NATS', () => {
  const schema = freshSchemaName();
  let servers: RunningServer[] = [];
  let nc: NatsConnection;
  beforeAll(async () => {
    const options = {
      port: 0,
      adminToken: 'admin-secret',
      databaseUrl: `${PG_URL}?schema=${schema}`,
      natsUrl: NATS_URL,
    };
    const logs = [subscribedLog(), subscribedLog()];
    servers = await Promise.all(logs.map((log) => startServer({ ...options, logger: true, logStream: log.stream })));
    // Each process says when its subscription is in place: from then on it hears the other.
    await Promise.all(logs.map((log) => log.subscribed));
    nc = await connect({ servers: NATS_URL });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await nc.close();
    await dropSchema(schema);
  });

  it('shows a dashboard of one process what the other stored, once, carried by NATS', async () => {
    const onNats: string[] = [];
    const subscription = nc.subscribe(`waypost_live.${schema}`);
    await nc.flush(); // the NATS server has the test's subscription before anything is published
    const heard = (async () => {
      for await (const message of subscription) {
        if (!message.string().includes('truck-a')) continue;
        onNats.push(message.string());
        break;
      }
    })();
    const feed = await openLiveFeed(servers[1]!.url, 'admin-secret');
    const before = feed.positions.length;
    const reply = await fetch(`${servers[0]!.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: record('from-a', 45, 7), device_id: 'truck-a' }),
    });
    expect(reply.status).toBe(200);
    await feed.atLeast(before + 1);
    await heard;
    expect(feed.positions.slice(before)).toEqual([expect.objectContaining({ deviceId: 'truck-a', latitude: 45 })]);
    expect(JSON.parse(onNats[0]!)).toEqual([expect.objectContaining({ deviceId: 'truck-a', stored: 1 })]);
    feed.close();
  });
});
