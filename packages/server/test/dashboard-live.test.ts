import { describe, expect, it } from 'vitest';
import { record } from './helpers/client.js';
import { useServerProcesses } from './helpers/server-processes.js';

const ADMIN = { authorization: 'Bearer admin-secret' };

interface Position {
  deviceId: string;
  latitude: number;
  longitude: number;
  stored: number;
}

/** A dashboard's live feed: the server-sent events of one server, collected as they arrive. */
async function openFeed(url: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { headers: ADMIN, signal: controller.signal });
  expect(response.status).toBe(200);
  const positions: Position[] = [];
  const waiters: (() => void)[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: position\ndata: (.*)$/m.exec(block);
          if (data) positions.push(JSON.parse(data[1]!) as Position);
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  return {
    positions,
    /** Resolves once a position of this device has arrived (the test's timeout bounds the wait). */
    async next(deviceId: string): Promise<Position> {
      for (;;) {
        const found = positions.find((p) => p.deviceId === deviceId);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    /** Resolves once `count` positions have arrived in all. */
    async atLeast(count: number): Promise<void> {
      while (positions.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => controller.abort(),
  };
}

const upload = (url: string, deviceId: string, uuid: string, latitude: number) =>
  fetch(`${url}/locations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location: record(uuid, latitude, 11.5), device_id: deviceId }),
  }).then((response) => response.status);

describe('the live feed with two server processes on one PostgreSQL', () => {
  const servers = useServerProcesses(2);

  it('shows a dashboard connected to one process the positions stored by the other, each once', async () => {
    const [a, b] = [servers[0]!, servers[1]!];
    const feedA = await openFeed(a.url);
    const feedB = await openFeed(b.url);
    try {
      expect(await upload(b.url, 'via-b', 'b-1', 48.25)).toBe(200);
      expect(await feedA.next('via-b')).toMatchObject({
        deviceId: 'via-b',
        latitude: 48.25,
        longitude: 11.5,
        stored: 1,
      });
      expect(await upload(a.url, 'via-a', 'a-1', 48.35)).toBe(200);
      expect(await feedB.next('via-a')).toMatchObject({ deviceId: 'via-a', latitude: 48.35, stored: 1 });
      await feedA.next('via-a');
      // A marker sent after both: once it has arrived everywhere, nothing earlier can still be on its way twice.
      expect(await upload(b.url, 'marker', 'm-1', 48.45)).toBe(200);
      await Promise.all([feedA.next('marker'), feedB.next('marker')]);
      for (const feed of [feedA, feedB]) {
        expect(feed.positions.map((p) => p.deviceId)).toEqual(['via-b', 'via-a', 'marker']);
      }
      // A duplicate upload stores nothing, and a position nobody stored is published by nobody.
      expect(await upload(a.url, 'via-b', 'b-1', 48.25)).toBe(200);
      expect(await upload(a.url, 'marker', 'm-2', 48.55)).toBe(200);
      await feedB.atLeast(4);
      expect(feedB.positions.map((p) => p.deviceId)).toEqual(['via-b', 'via-a', 'marker', 'marker']);
    } finally {
      feedA.close();
      feedB.close();
    }
  });
});
