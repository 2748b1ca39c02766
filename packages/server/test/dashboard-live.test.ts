import { describe, expect, it } from 'vitest';
import { record } from './helpers/client.js';
import { openLiveFeed } from './helpers/live-feed.js';
import { useServerProcesses } from './helpers/server-processes.js';

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
    const feedA = await openLiveFeed(a.url, 'admin-secret');
    const feedB = await openLiveFeed(b.url, 'admin-secret');
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
