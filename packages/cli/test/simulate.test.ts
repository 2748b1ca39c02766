import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@waypost/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import type { DeviceReport } from '../src/simulate/summary.js';
import { EXIT_WAIT_MS } from './support/agent-process.js';
import { startBlackHoleServer } from './support/black-hole-server.js';
import { within } from './support/bounded.js';
import { captureIo } from './support/capture-io.js';
import { startSilentServer } from './support/silent-server.js';
import { freePort } from './support/free-port.js';

/**
 * For the tests that wait on several bounded steps in turn (a feed, the server, then the exit):
 * their sum passes the default 30 s, and a named bound must fail first, not vitest's timeout.
 */
const WITH_NAMED_BOUNDS_MS = 60_000;

let dir: string;
let server: RunningServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypost-cli-simulate-'));
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'server.db'),
    adminToken: 'test-admin',
  });
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs `waypost simulate` in-process against `url`, as fast as the machine allows. */
async function simulateTo(url: string, ...flags: string[]) {
  const io = captureIo();
  // Bounded: a simulation whose uploads never end fails naming it, not at the test's timeout.
  const code = await within(
    main(['simulate', '--url', url, '--speedup', '0', '--interval', '5', '--device-prefix', 'sim-', ...flags], io),
    EXIT_WAIT_MS,
    () => `waypost simulate ${flags.join(' ')} to end; stderr:\n${io.err().slice(-2000)}`,
  );
  return { code, out: io.out(), err: io.err() };
}

/** Runs `waypost simulate` against the test's server. */
const simulate = (...flags: string[]) => simulateTo(`${server.url}/locations`, ...flags);

type Summary = { seed: number; lost: number; devices: DeviceReport[] };

describe('waypost simulate', () => {
  it('a wrong --admin-token fails at once, naming the flag, before anything is simulated', async () => {
    const io = captureIo();
    // At the default speed, an hour of simulated time takes a minute: the check must come first.
    const code = await main(
      ['simulate', '--url', `${server.url}/locations`, '--duration', '1h', '--admin-token', 'nope'],
      io,
    );
    expect(code).toBe(1);
    expect(io.err()).toMatch(/admin API GET \/api\/devices answered 401: .*WRONG_TOKEN.*\(check --admin-token\)/);
    expect(io.err()).not.toContain('simulating');
  });

  it('delivers every recorded location of every device to the service, and says so', async () => {
    const { code, out, err } = await simulate(
      '--devices',
      '3',
      '--duration',
      '4m',
      '--admin-token',
      'test-admin',
      '--json',
    );
    expect(code).toBe(0);
    const summary = JSON.parse(out) as Summary;
    expect(summary.lost).toBe(0);
    expect(summary.devices.map((d) => d.device)).toEqual(['sim-1', 'sim-2', 'sim-3']);
    for (const device of summary.devices) {
      // One fix every 5 s for 4 minutes, plus any motionchange records the SDK added.
      expect(device.recorded).toBeGreaterThanOrEqual(48);
      expect(device).toMatchObject({ delivered: device.recorded, queued: 0, lost: 0, duplicates: 0, storedTwice: 0 });
      expect(device.stored).toBe(device.recorded);
      expect(device.requests).toBe(device.recorded);
    }
    expect(err).toContain('100% 4m00s/4m00s');

    const devices = (await (
      await fetch(`${server.url}/api/devices`, { headers: { authorization: 'Bearer test-admin' } })
    ).json()) as { id: string; records: number }[];
    expect(devices.map((d) => [d.id, d.records]).sort()).toEqual(summary.devices.map((d) => [d.device, d.recorded]));
  });

  it('prints a table per device with a total row', async () => {
    const { code, out } = await simulate('--devices', '2', '--duration', '1m', '--admin-token', 'test-admin');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^device\s+recorded\s+delivered\s+queued\s+duplicates\s+lost\s+stored\s+stored twice/);
    expect(lines.slice(2).map((line) => line.split(/\s+/)[0])).toEqual(['sim-1', 'sim-2', 'total']);
    expect(lines[4]).toMatch(/^total\s+\d+\s+\d+\s+0\s+0\s+0\s/);
  });

  it('records the same tracks for the same seed', async () => {
    const latitudes = async (base: string) =>
      (
        (await (
          await fetch(`${base}/api/devices/sim-1/locations?limit=1000&format=json`, {
            headers: { authorization: 'Bearer test-admin' },
          })
        ).json()) as { timestamp: string; latitude: number }[]
      )
        .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
        .map((r) => r.latitude);
    const first = JSON.parse((await simulate('--duration', '2m', '--seed', '9', '--json')).out) as Summary;
    const firstTrack = await latitudes(server.url);
    // The second run goes to a second service, so the two tracks are not interleaved.
    await server.close();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'second.db'),
      adminToken: 'test-admin',
    });
    const second = JSON.parse((await simulate('--duration', '2m', '--seed', '9', '--json')).out) as Summary;
    expect(second.devices.map((d) => d.recorded)).toEqual(first.devices.map((d) => d.recorded));
    expect(firstTrack.length).toBeGreaterThanOrEqual(24);
    expect(await latitudes(server.url)).toEqual(firstTrack);
  });

  it('uses batches with --batch and an autoSync threshold', async () => {
    const { code, out } = await simulate(
      '--devices',
      '1',
      '--duration',
      '5m',
      '--batch',
      '--threshold',
      '10',
      '--json',
    );
    expect(code).toBe(0);
    const [device] = (JSON.parse(out) as Summary).devices;
    expect(device!.delivered).toBe(device!.recorded);
    // Without --batch every record is its own request (60 here). With it, an upload starts once 10
    // are queued and drains the queue, so the fixes recorded while a request is in flight go in
    // smaller batches of the same flush: at --speedup 0 how many depends on the machine's speed
    // (ceil(60 / 10) + 2 on a quiet machine; 29 and 32 seen on CI runs, the fixes of each request's
    // flight going one or two at a time). What does not depend on it: the first upload waits for
    // the threshold, so at least one request carries 10 records and there are at most 60 - 9
    // requests (without --batch: 60, one each).
    expect(device!.recorded).toBe(60);
    expect(device!.requests).toBeLessThanOrEqual(device!.recorded - 9);
  });

  it('keeps records queued, not lost, when the service cannot be reached, and keeps --database-dir', async () => {
    const keep = join(dir, 'queues');
    const { code, out, err } = await simulateTo(
      `http://127.0.0.1:${await freePort()}/locations`,
      '--devices',
      '2',
      '--duration',
      '1m',
      '--drain-timeout',
      '1s',
      '--database-dir',
      keep,
      '--json',
    );
    // Nothing lost (every record is still queued), but nothing delivered either: a failed run.
    expect(code).toBe(1);
    for (const device of (JSON.parse(out) as Summary).devices) {
      expect(device).toMatchObject({ delivered: 0, queued: device.recorded, lost: 0 });
      expect(device.failedRequests).toBeGreaterThan(0);
    }
    expect(err).toContain('records still queued after 1s');
    expect(err).toMatch(
      /nothing was delivered to http:\/\/127\.0\.0\.1:\d+\/locations: no response: connection refused/,
    );
    expect((await readdir(keep)).filter((f) => f.endsWith('.db')).sort()).toEqual(['sim-1.db', 'sim-2.db']);
  });

  it('against a service that accepts and never answers: the drain and the close keep --drain-timeout', async () => {
    // http.timeout stays at its 60 s default: a drain or a close waiting for it would outlast the test.
    const { code, err } = await simulateTo(
      await startSilentServer(),
      '--devices',
      '2',
      '--duration',
      '1m',
      '--drain-timeout',
      '1s',
    );
    expect(code).toBe(1);
    expect(err).toContain('records still queued after 1s');
    expect(err).toMatch(/closing took over 1s: \d+ record\(s\) of uploads still unanswered released/);
  });

  it(
    'exits 1 and counts the records lost when the service acknowledges uploads it never stores',
    async () => {
      const blackHole = await startBlackHoleServer();
      try {
        const io = captureIo();
        const args = ['--speedup', '0', '--devices', '1', '--duration', '1m', '--admin-token', 'any', '--json'];
        const code = await within(
          main(['simulate', '--url', `${blackHole.url}/locations`, ...args], io),
          EXIT_WAIT_MS,
          () => `waypost simulate against a black hole to end; stderr:\n${io.err().slice(-2000)}`,
        );
        expect(code).toBe(1);
        const [device] = (JSON.parse(io.out()) as Summary).devices;
        expect(device).toMatchObject({ delivered: device!.recorded, queued: 0, lost: device!.recorded, stored: 0 });
        expect(io.err()).toContain(`${device!.recorded} records lost`);
      } finally {
        await blackHole.close();
      }
    },
    WITH_NAMED_BOUNDS_MS,
  );
});
