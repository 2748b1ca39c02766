// A server steering the agent (docs/sdk-api.md, "Remote control", and docs/agent.md, "Boot,
// termination, and apps beside the agent"): the CLI as a child process against Waypost's own server, commands queued through the
// admin API as an operator queues them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { epochSentences, straightTrack } from '../../node/test/providers/support/nmea-writer.js';
import { spawnAgent } from './support/agent-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-agent-remote-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const DEVICE = 'rc-1';

async function serverWithCommands(commands: unknown[]) {
  const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
  onTestFinished(() => server.close());
  const admin = (path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: 'Bearer adm', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  // The device exists once it uploaded something; then the operator queues the commands.
  const first = await fetch(`${server.url}/locations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      location: { uuid: 'first', timestamp: new Date().toISOString(), coords: { latitude: 45, longitude: -73 } },
      device_id: DEVICE,
    }),
  });
  expect(first.status).toBe(200);
  for (const command of commands)
    expect((await admin(`/api/devices/${DEVICE}/commands`, { command })).status).toBe(201);
  const records = async () => ((await (await admin(`/api/devices/${DEVICE}`)).json()) as { records: number }).records;
  return { url: `${server.url}/locations`, records };
}

/** A minute of NMEA at one epoch per second, replayed at its pace: the agent is mid-file for long. */
function nmeaMinute(): string {
  const track = straightTrack(60, Math.floor(Date.now() / 1000) * 1000 - 120_000, 1000);
  const path = join(dir, 'minute.nmea');
  writeFileSync(path, track.flatMap((p) => epochSentences(p, 'GP')).join('\r\n') + '\r\n');
  return path;
}

describe('waypost agent steered by the server', () => {
  it('prints each remote command by name (never its arguments), and a stop ends an --exit-when-done replay with exit 0', async () => {
    const server = await serverWithCommands([
      ['setConfig', { http: { headers: { 'X-Api-Key': 's3cret-key' } } }],
      'stop',
    ]);
    const agent = spawnAgent([
      ...['--source', `nmea-file:${nmeaMinute()}`, '--url', server.url, '--device-id', DEVICE],
      ...['--database', join(dir, 'agent.db'), '--exit-when-done'],
    ]);
    expect(await agent.exited, agent.stderr()).toEqual([0, null]);
    const stderr = agent.stderr();
    expect(stderr).toContain('remote command setConfig done');
    expect(stderr).toContain('remote command stop done');
    expect(stderr).toContain('the rest of the file is not read (tracking was stopped)');
    expect(stderr).toContain('source done and queue empty: stopping');
    expect(stderr).not.toContain('s3cret-key');
    // What was recorded before the stop was delivered; the rest of the minute was not read.
    const stored = await server.records();
    expect(stored).toBeGreaterThan(1);
    expect(stored).toBeLessThan(1 + 60);
  });
});
