// The agent on a server that requires device tokens (docs/deploying.md: --require-tokens,
// --registration secret): the device is registered once and its tokens go into the --config file.
// The CLI runs as a child process against Waypost's own server, twice on one database, as systemd
// restarts it: the tokens refreshed by the first run must survive the second.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { BIN, spawnAgent } from './support/agent-process.js';

const TRACK = new URL('../../../examples/track.gpx', import.meta.url);
const POINTS = (readFileSync(TRACK, 'utf8').match(/<trkpt /g) ?? []).length;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-agent-tokens-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function tokenServer() {
  const server = await startServer({
    port: 0,
    database: join(dir, 'server.db'),
    adminToken: 'adm',
    requireTokens: true,
    registration: 'secret',
    registrationSecret: 'enroll-me',
  });
  onTestFinished(() => server.close());
  const register = async (deviceId: string) => {
    const response = await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-registration-secret': 'enroll-me' },
      body: JSON.stringify({ device_id: deviceId }),
    });
    expect(response.status).toBe(200);
    const { accessToken, refreshToken } = (await response.json()) as { accessToken: string; refreshToken: string };
    return { accessToken, refreshToken };
  };
  const records = async (deviceId: string) => {
    const response = await fetch(`${server.url}/api/devices/${deviceId}`, { headers: { authorization: 'Bearer adm' } });
    return ((await response.json()) as { records: number; duplicates: number }).records;
  };
  return { url: server.url, register, records };
}

/** A --config file holding the device's tokens, marked expired so that the first upload refreshes. */
function configFile(url: string, tokens: { accessToken: string; refreshToken: string }): string {
  const path = join(dir, 'agent.json');
  const config = {
    source: `gpx:${TRACK.pathname}`,
    database: join(dir, 'agent.db'),
    replaySpeed: 0,
    exitWhenDone: true,
    http: { url: `${url}/locations`, params: { device_id: 'pi-7' }, batchSync: true, maxBatchSize: 50 },
    authorization: {
      strategy: 'JWT',
      ...tokens,
      refreshUrl: `${url}/auth/refresh`,
      refreshPayload: { refresh_token: '{refreshToken}' },
      expires: 1000,
    },
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const sdkLog = () =>
  spawnSync(process.execPath, [BIN, 'log', '--database', join(dir, 'agent.db')], { encoding: 'utf8' });

describe('waypost agent with device tokens from its --config file', () => {
  it('a restart keeps the refreshed tokens instead of sending the spent refresh token again', async () => {
    const server = await tokenServer();
    const config = configFile(server.url, await server.register('pi-7'));
    const first = spawnAgent(['--config', config]);
    expect(await first.exited, first.stderr()).toEqual([0, null]);
    expect(first.stderr()).toContain('authorization tokens from the configuration file');
    expect(sdkLog().stdout).toMatch(/\[Auth\] access token refreshed/);

    const second = spawnAgent(['--config', config]);
    expect(await second.exited, second.stderr()).toEqual([0, null]);
    expect(second.stderr()).toContain('authorization tokens from the database');
    expect(second.stderr()).not.toContain('authorization failed');
    expect(sdkLog().stdout).not.toMatch(/refresh answered 4\d\d/);
    // Both runs replayed the same file, whose fixes keep their uuids (issue 29): each stored once.
    expect(await server.records('pi-7')).toBe(POINTS);
  });

  it('new tokens put into the file are applied, and a refused refresh is printed with its status', async () => {
    const server = await tokenServer();
    const tokens = await server.register('pi-7');
    const stale = configFile(server.url, { accessToken: 'not-a-token', refreshToken: 'spent-or-revoked' });
    const refused = spawnAgent(['--config', stale, '--give-up-after', '2s']);
    expect(await refused.exited).toEqual([1, null]);
    expect(refused.stderr()).toMatch(/authorization failed \(HTTP 401\)/);

    const fresh = configFile(server.url, tokens);
    const applied = spawnAgent(['--config', fresh]);
    expect(await applied.exited, applied.stderr()).toEqual([0, null]);
    expect(applied.stderr()).toContain('authorization tokens from the configuration file');
    // The first run's walk waited in the queue and the second replayed the same file (the same
    // uuids): every fix arrives, once.
    expect(await server.records('pi-7')).toBe(POINTS);
  });
});
