import { startServer, type RunningServer } from '@waypost/server';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { record } from './helpers/client.js';

const NATS_URL = 'nats://127.0.0.1:4222';

/** A dashboard's live feed: positions (server-sent events) as they arrive. */
async function openFeed(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  const positions: { deviceId: string }[] = [];
  let wake = () => {};
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += new TextDecoder().decode(chunk as Uint8Array);
        for (const match of buffer.matchAll(/^event: position\ndata: (.*)$/gm)) positions.push(JSON.parse(match[1]!));
        buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
        wake();
      }
    } catch {
      // aborted at the end
    }
  })();
  return {
    positions,
    async until(count: number) {
      while (positions.length < count) await new Promise<void>((resolve) => (wake = resolve));
    },
    close: () => controller.abort(),
  };
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
    servers = [await startServer(options), await startServer(options)];
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
    const heard = (async () => {
      for await (const message of subscription) {
        if (!message.string().includes('truck-a')) continue;
        onNats.push(message.string());
        break;
      }
    })();
    const feed = await openFeed(servers[1]!.url, 'admin-secret');
    // The subscriber of the other process is ready when a position of its own comes back.
    let n = 0;
    while (feed.positions.length === 0) {
      await fetch(`${servers[1]!.url}/locations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ location: record(`warm-${n++}`), device_id: 'warm-up' }),
      });
      await Promise.race([feed.until(1), new Promise((resolve) => setTimeout(resolve, 200))]);
    }
    const before = feed.positions.length;
    const reply = await fetch(`${servers[0]!.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: record('from-a', 45, 7), device_id: 'truck-a' }),
    });
    expect(reply.status).toBe(200);
    await feed.until(before + 1);
    await heard;
    expect(feed.positions.slice(before)).toEqual([expect.objectContaining({ deviceId: 'truck-a', latitude: 45 })]);
    expect(JSON.parse(onNats[0]!)).toEqual([expect.objectContaining({ deviceId: 'truck-a', stored: 1 })]);
    feed.close();
  });
});
