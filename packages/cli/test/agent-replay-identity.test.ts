import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { openLiveFeed } from '../../server/test/helpers/live-feed.js';
import { spawnAgent } from './support/agent-process.js';
import { within } from './support/bounded.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-replay-identity-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const POINTS = 40;

/** A walk of POINTS fixes one second and about 11 m apart. */
function walk(): string {
  const start = Date.now() - 10 * 60_000;
  const trkpts = Array.from(
    { length: POINTS },
    (_, i) =>
      `<trkpt lat="${(45.5 + i * 1e-4).toFixed(6)}" lon="-73.56"><time>${new Date(start + i * 1000).toISOString()}</time></trkpt>`,
  );
  const path = join(dir, 'walk.gpx');
  writeFileSync(path, `<gpx version="1.1"><trk><trkseg>${trkpts.join('')}</trkseg></trk></gpx>`);
  return path;
}

describe('waypost agent: a GPX replay killed and started again', () => {
  it('the server holds each fix once: a fix keeps its uuid across restarts', async () => {
    const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
    onTestFinished(() => server.close());
    const live = await openLiveFeed(server.url, 'adm');
    onTestFinished(() => live.close());
    const source = walk();
    const args = [
      ...['--source', `gpx:${source}`, '--url', `${server.url}/locations`, '--database', join(dir, 'agent.db')],
      ...['--device-id', 'walker'],
    ];
    // Ten times the recorded pace: 4 s for the walk, killed after the first 10 fixes are stored.
    const first = spawnAgent([...args, '--replay-speed', '10']);
    await within(live.storedAtLeast('walker', 10), 15_000, 'the server storing 10 records of the first run');
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual([null, 'SIGKILL']);

    const again = spawnAgent([...args, '--replay-speed', '0', '--exit-when-done']);
    expect(await again.exitedWithin(30_000), again.stderr()).toEqual([0, null]);
    const response = await fetch(`${server.url}/api/devices/walker/locations?limit=1000`, {
      headers: { authorization: 'Bearer adm' },
    });
    const rows = (await response.json()) as { uuid: string; timestamp: string }[];
    expect(new Set(rows.map((row) => row.timestamp)).size).toBe(POINTS);
    expect(rows).toHaveLength(POINTS);
    expect(new Set(rows.map((row) => row.uuid)).size).toBe(POINTS);
  });
});
