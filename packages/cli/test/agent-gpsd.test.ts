import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { epochSentences, straightTrack } from '../../node/test/providers/support/nmea-writer.js';
import { openLiveFeed } from '../../server/test/helpers/live-feed.js';
import { spawnAgent } from './support/agent-process.js';
import { startGpsfake } from './support/gpsfake-session.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-gpsd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('waypost agent with the real gpsd', () => {
  it('an NMEA log replayed through gpsfake reaches the service as the same track', async () => {
    const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
    onTestFinished(() => server.close());
    const live = await openLiveFeed(server.url, 'adm');
    onTestFinished(() => live.close());

    // A known track: 30 epochs one second apart, a minute ago, 13.1 m/s heading 31.3 degrees.
    const track = straightTrack(30, Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const log = join(dir, 'track.nmea');
    writeFileSync(log, track.flatMap((p) => epochSentences(p, 'GP')).join('\r\n') + '\r\n');
    const gpsfake = await startGpsfake(log);

    const config = join(dir, 'agent.json');
    writeFileSync(config, JSON.stringify({ http: { params: { device_id: 'gpsd-1' }, batchSync: true } }));
    const agent = spawnAgent([
      '--config',
      config,
      '--database',
      join(dir, 'agent.db'),
      '--url',
      `${server.url}/locations`,
      '--source',
      `gpsd://127.0.0.1:${gpsfake.port}`,
    ]);
    await agent.waitFor(/started; source gpsd:/);
    gpsfake.go();

    const last = new Date(track.at(-1)!.time).toISOString();
    type Row = { timestamp: string; latitude: number; longitude: number; record: { coords: Record<string, number> } };
    // The server announces each upload it stores on its live feed: awaited until the last fix's.
    await live.find((p) => p.deviceId === 'gpsd-1' && p.timestamp === last);
    const response = await fetch(`${server.url}/api/devices/gpsd-1/locations`, {
      headers: { authorization: 'Bearer adm' },
    });
    const stored = (await response.json()) as Row[];
    expect(stored.map((r) => r.timestamp)).toContain(last);

    // The stored positions follow the track: each is one of its points, in order, and together
    // they cover it (a client that connects as gpsd starts may miss an epoch or two at most).
    expect(stored.length).toBeGreaterThanOrEqual(track.length - 3);
    const times = stored.map((r) => Date.parse(r.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
    for (const row of stored) {
      const point = track.find((p) => p.time === Date.parse(row.timestamp));
      expect(point, `stored ${row.timestamp} is not on the track`).toBeDefined();
      expect(row.latitude).toBeCloseTo(point!.latitude, 6);
      expect(row.longitude).toBeCloseTo(point!.longitude, 6);
      expect(row.record.coords).toMatchObject({
        altitude: point!.altitude,
        speed: expect.closeTo(13.1, 1),
        heading: expect.closeTo(31.3, 1),
      });
      expect(row.record.coords['accuracy']).toBeGreaterThan(0); // gpsd's own error estimate
    }

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toEqual([0, null]);
  });
});
