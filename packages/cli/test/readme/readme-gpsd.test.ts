// The README's gpsd examples against the real daemon: Debian's gpsd replaying a known NMEA track
// (through gpsfake's engine), the agent command line and the provider program as written; only
// the placeholder host and gpsd's port change.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { epochSentences, straightTrack } from '../../../node/test/providers/support/nmea-writer.js';
import { relayStartingOnWatch, startGpsfake } from '../support/gpsfake-session.js';
import { block } from './readme-blocks.js';
import { admin, pointAt, runShell, runTsExample, startWorld, storedAtLeast } from './readme-world.js';

const EPOCHS = 20;

async function gpsdReplaying(dir: string) {
  const track = straightTrack(EPOCHS, Math.floor(Date.now() / 1000) * 1000 - 60_000);
  const log = join(dir, 'track.nmea');
  writeFileSync(log, track.flatMap((p) => epochSentences(p, 'GP')).join('\r\n') + '\r\n');
  return startGpsfake(log);
}

describe('README: gpsd', () => {
  it('the agent command records what gpsd reports and the server stores it', async () => {
    const { dir, server } = await startWorld();
    const gpsd = await gpsdReplaying(dir);
    const line = pointAt(block('agent-gpsd').code.trim(), server).replace('127.0.0.1:2947', `127.0.0.1:${gpsd.port}`);
    const port = await relayStartingOnWatch(gpsd);
    const agent = runShell(line.replace(`:${gpsd.port}`, `:${port}`), dir);
    // The README's line names no device: the agent names itself, and says so.
    const [, device] = await agent.waitFor(/device id (\S+) \(from this host/);
    await storedAtLeast(server, device!, EPOCHS - 3);
    const devices = await admin<{ id: string }[]>(server, '/api/devices');
    expect(devices.map((d) => d.id)).toEqual([device]);
  });

  it('the provider program uploads gpsd fixes as pi-1', async () => {
    const { dir, server } = await startWorld();
    const gpsd = await gpsdReplaying(dir);
    const port = await relayStartingOnWatch(gpsd);
    const code = pointAt(block('gps-provider').code, server).replace('port: 2947', `port: ${port}`);
    runTsExample(code, dir);
    expect(await storedAtLeast(server, 'pi-1', EPOCHS - 3)).toBeGreaterThanOrEqual(EPOCHS - 3);
  });
});
