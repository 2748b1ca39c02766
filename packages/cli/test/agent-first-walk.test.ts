// The agent as a new user first meets it (issue 17): the CLI as a child process, against Waypost's
// own server with its defaults and against servers that refuse. It names itself, says why an
// upload was refused, backs off instead of spinning, gives up with an error, and a source file
// that cannot be read is a bad command line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { spawnAgent } from './support/agent-process.js';
import { writeGpxWalk } from './support/gpx-walk.js';
import { startRefusingServer } from './support/refusing-server.js';
import { startSilentServer } from './support/silent-server.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-first-walk-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const gpx = (points: number): string => writeGpxWalk(dir, points);

async function waypostServer() {
  const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
  onTestFinished(() => server.close());
  const devices = async () => {
    const response = await fetch(`${server.url}/api/devices`, { headers: { authorization: 'Bearer adm' } });
    return (await response.json()) as { id: string; records: number }[];
  };
  return { url: `${server.url}/locations`, devices };
}

const replay = (source: string, url: string, ...more: string[]) =>
  spawnAgent([
    '--source',
    `gpx:${source}`,
    '--url',
    url,
    '--database',
    join(dir, 'agent.db'),
    '--replay-speed',
    '0',
    '--exit-when-done',
    ...more,
  ]);

describe('waypost agent: a new user', () => {
  it('names itself by default (host name and a piece of its uuid), the same name on every run', async () => {
    const server = await waypostServer();
    const walk = gpx(5);
    const first = replay(walk, server.url);
    expect(await first.exited, first.stderr()).toEqual([0, null]);
    const [, name] = /device id (\S+) \(from this host, kept in the database\)/.exec(first.stderr())!;
    const host = hostname()
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-');
    expect(name).toMatch(new RegExp(`^${host.replace(/[.]/g, '\\.')}-[0-9a-f]{8}$`));
    const second = replay(walk, server.url);
    expect(await second.exited).toEqual([0, null]);
    expect(second.stderr()).toMatch(`device id ${name} (from the configuration)`);
    // Two replays of the walk, one device: a fix keeps its uuid, so the server holds each once.
    expect(await server.devices()).toEqual([expect.objectContaining({ id: name, records: 5 })]);
  });

  it('--device-id names it', async () => {
    const server = await waypostServer();
    const agent = replay(gpx(3), server.url, '--device-id', 'truck-9');
    expect(await agent.exited, agent.stderr()).toEqual([0, null]);
    expect(await server.devices()).toEqual([expect.objectContaining({ id: 'truck-9', records: 3 })]);
  });

  it('a server refusing everything: its code and message are printed, requests back off, and the agent gives up with exit 1', async () => {
    const refusing = await startRefusingServer(400, JSON.stringify({ error: 'No device named', code: 'NO_DEVICE' }));
    const agent = replay(gpx(5), refusing.url, '--give-up-after', '3s');
    expect(await agent.exited).toEqual([1, null]);
    expect(agent.stderr()).toContain('upload failed (HTTP 400 NO_DEVICE: No device named); the records stay queued');
    expect(agent.stderr()).toMatch(
      /gave up: 5 record\(s\) not delivered after 3s without a delivery \(--give-up-after\); last failure: HTTP 400 NO_DEVICE/,
    );
    // Each of the 5 records is refused alone when recorded; each sync() of the drain (1 s doubling,
    // at most 3 in 3 s) retries each alone (spec 7.3; issue 19: never again in a batch): at most
    // 5 x 4 requests, far from a request loop.
    expect(refusing.requests()).toBeLessThanOrEqual(20);
  });

  it('a server that never answers: gives up after --give-up-after, not after http.timeout per request', async () => {
    const url = await startSilentServer();
    // http.timeout stays at its 60 s default: a drain waiting for it would outlast this test.
    const agent = replay(gpx(3), url, '--give-up-after', '2s', '--shutdown-timeout', '1s');
    expect(await agent.exited).toEqual([1, null]);
    expect(agent.stderr()).toMatch(/gave up: 3 record\(s\) not delivered after 2s without a delivery/);
    // The timeout is named, though the SDK has not reported the request yet (http.timeout is 60 s).
    expect(agent.stderr()).toMatch(
      /last failure: TIMEOUT: 127\.0\.0\.1:\d+ accepted the connection but sent no response within 2s \(--give-up-after; |\(--give-up-after\) \(the SDK ends such a request after http\.timeout, 60 s\)/,
    );
    expect(agent.stderr()).not.toContain('none reported');
    expect(agent.stderr()).toMatch(/record\(s\) of the upload in flight released/);
  });

  it('honours Retry-After while draining', async () => {
    const refusing = await startRefusingServer(429, '{"error":"slow down","code":"RATE_LIMITED"}', {
      'retry-after': '3600',
    });
    const agent = replay(gpx(4), refusing.url, '--give-up-after', '3s');
    expect(await agent.exited).toEqual([1, null]);
    // The first automatic upload is told to wait an hour: the later fixes do not upload, the
    // drain's one manual attempt (sync() always proceeds) is told the same, and nothing follows.
    expect(refusing.requests()).toBeLessThanOrEqual(2);
    expect(agent.stderr()).toContain('HTTP 429 RATE_LIMITED: slow down');
  });

  it("a hostile server's reason is printed as one bounded line of text", async () => {
    const hostile = `\u001b[2J\u001b[31mPWNED\r\nfake: line${'x'.repeat(10_000)}`;
    const refusing = await startRefusingServer(
      400,
      JSON.stringify({ error: hostile, code: 'BAD\u001b]0;title\u0007' }),
    );
    const agent = replay(gpx(1), refusing.url, '--give-up-after', '1s');
    expect(await agent.exited).toEqual([1, null]);
    const line = agent
      .stderr()
      .split('\n')
      .find((l) => l.includes('upload failed'))!;
    const controls = [...agent.stderr()].filter((c) => (c < ' ' && c !== '\n') || c === '\u007f');
    expect(controls).toEqual([]);
    expect(line.length).toBeLessThan(400);
    expect(line).toContain('PWNED');
  });

  it('a GPX file that is missing or is not GPX exits 2 naming it', async () => {
    const missing = spawnAgent([
      '--source',
      'gpx:./missing.gpx',
      '--exit-when-done',
      '--url',
      'http://127.0.0.1:9/locations',
    ]);
    expect(await missing.exited).toEqual([2, null]);
    expect(missing.stderr()).toMatch(/--source gpx:\.\/missing\.gpx: ENOENT/);
    const garbage = join(dir, 'garbage.gpx');
    writeFileSync(garbage, 'this is not xml at all <<<');
    const server = await waypostServer();
    const bad = replay(garbage, server.url);
    expect(await bad.exited).toEqual([2, null]);
    expect(bad.stderr()).toMatch(/cannot read gpx:.*SOURCE_INVALID/);
  });

  it('a file with nothing to replay (a GPX of waypoints, a file that is not NMEA) exits 2, not 0', async () => {
    const server = await waypostServer();
    const route = join(dir, 'route.gpx');
    writeFileSync(
      route,
      '<gpx version="1.1"><wpt lat="45.5" lon="-73.5"/><rte><rtept lat="45.5" lon="-73.5"/></rte></gpx>',
    );
    const gpxAgent = replay(route, server.url);
    expect(await gpxAgent.exited).toEqual([2, null]);
    expect(gpxAgent.stderr()).toMatch(/cannot read gpx:.*SOURCE_INVALID: .*no track point/);
    const notNmea = join(dir, 'server.log');
    writeFileSync(notNmea, 'url: http://127.0.0.1:8080\nadmin token: x\n');
    const nmeaAgent = spawnAgent([
      ...['--source', `nmea-file:${notNmea}`, '--url', server.url, '--database', join(dir, 'nmea.db')],
      ...['--replay-speed', '0', '--exit-when-done'],
    ]);
    expect(await nmeaAgent.exited).toEqual([2, null]);
    expect(nmeaAgent.stderr()).toMatch(/cannot read nmea-file:.*SOURCE_INVALID: .*no NMEA 0183 sentence/);
    expect(await server.devices()).toEqual([]);
  });
});
