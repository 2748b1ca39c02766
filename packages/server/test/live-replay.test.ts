import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

// Issue 30: a dashboard that lost its live feed (its host went away) reconnects with Last-Event-ID
// and is first told, from the database, every device seen since: its count and last position.

interface Block {
  event: string | null;
  id: string | null;
  data: Record<string, unknown> | null;
}

/** A live feed connection whose blocks are read one at a time (each wait bounded by the test's timeout). */
async function openFeed(url: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, {
    headers: { authorization: 'Bearer admin-secret', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<Block> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const text = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1] ?? null;
          if (text.startsWith(':')) continue; // a keepalive
          const data = field('data');
          if (data === null && field('id') === null) continue; // retry: only
          return { event: field('event'), id: field('id'), data: data ? JSON.parse(data) : null };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the feed ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

describe.each(backends)('the live feed after a reconnect on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1, 10, 1);
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
  });
  afterAll(async () => server.stop());

  it('replays the devices seen since Last-Event-ID (not those seen long before), then goes on live', async () => {
    await server.post('/locations', { location: record('old-1'), device_id: 'old' });
    clockMs += 5 * 60_000;
    const first = await openFeed(server.url);
    const opened = await first.next();
    expect(opened.id).toBe(String(clockMs)); // the cursor, before any event
    first.close();

    const away = [1, 2, 3].map((n) =>
      record(`away-${n}`, 48 + n / 100, 11, new Date(Date.UTC(2024, 4, 1, 10, 5, n)).toISOString()),
    );
    clockMs += 1000;
    expect((await server.post('/locations', { location: away, device_id: 'away' })).status).toBe(200);
    clockMs += 30_000;

    const again = await openFeed(server.url, opened.id!);
    const replayed = await again.next();
    expect(replayed).toMatchObject({
      event: 'position',
      data: { deviceId: 'away', records: 3, stored: 0, replay: true, latitude: 48.03, timestamp: away[2]!.timestamp },
    });
    // The replay is whole: the cursor moves (to when it was read), and nothing else was replayed.
    expect(await again.next()).toEqual({ event: null, id: String(clockMs), data: null });

    clockMs += 1000;
    const more = record('away-4', 48.04, 11, new Date(Date.UTC(2024, 4, 1, 10, 5, 4)).toISOString());
    expect((await server.post('/locations', { location: more, device_id: 'away' })).status).toBe(200);
    // A live message of the first upload may still arrive (PostgreSQL's NOTIFY is on its way while
    // the feed reconnects): its count is not above the replay's, which is how a client knows it.
    let live = await again.next();
    while (Number(live.data?.['records']) <= 3) live = await again.next();
    expect(live.data).toMatchObject({ deviceId: 'away', records: 4, stored: 1 });
    expect(live.data).not.toHaveProperty('replay');
    again.close();
  });
});
