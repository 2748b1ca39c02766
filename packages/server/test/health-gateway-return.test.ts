// A gateway in front of the server (HAProxy, its backend put in maintenance) answers 503, with or
// without Retry-After, then lets the device through again (issue 39). While it lasts the server
// sees nothing and names the device quiet from what it said last, likely; once back, the real
// SDK's report says what its uploads met (fail=server, or the Retry-After hold), and the silent
// period is explained from it, for certain: not "no network".
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@waypost/node';
import { formatHealthHeader } from '@waypost/sdk/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../node/test/support/free-port.js';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const MIN = 60_000;
const WAIT_MS = 10_000;

/** Polls `done` (for what runs on the server's own timers: the silence check, HAProxy starting). */
async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Gateway {
  /** The frontend that answers HAProxy's own 503 while its backend is in maintenance. */
  plain: string;
  /** The frontend that answers 503 with Retry-After: 120 while its backend is in maintenance. */
  waiting: string;
  /** Puts both backends in maintenance (true) or back (false), through HAProxy's admin socket. */
  down(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

async function startGateway(target: string): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-gateway-'));
  const socket = join(dir, 'admin.sock');
  const [plainPort, waitingPort] = [await freePort(), await freePort()];
  const upstream = new URL(target);
  writeFileSync(
    join(dir, 'haproxy.cfg'),
    `global
  stats socket ${socket} mode 600 level admin
defaults
  mode http
  timeout connect 2s
  timeout client 10s
  timeout server 10s
frontend plain
  bind 127.0.0.1:${plainPort}
  default_backend plain
frontend waiting
  bind 127.0.0.1:${waitingPort}
  http-request return status 503 content-type text/plain string "maintenance" hdr retry-after 120 if { nbsrv(waiting) eq 0 }
  default_backend waiting
backend plain
  server app ${upstream.hostname}:${upstream.port}
backend waiting
  server app ${upstream.hostname}:${upstream.port}
`,
  );
  const haproxy: ChildProcess = spawn('/usr/sbin/haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], {
    stdio: 'ignore',
  });
  const admin = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const client = connect(socket);
      let answer = '';
      client.on('data', (chunk) => (answer += chunk.toString()));
      client.on('end', () => resolve(answer));
      client.on('error', reject);
      client.end(`${command}\n`);
    });
  await until('HAProxy answering on its admin socket', () =>
    admin('show info').then(
      () => true,
      () => false,
    ),
  );
  return {
    plain: `http://127.0.0.1:${plainPort}`,
    waiting: `http://127.0.0.1:${waitingPort}`,
    async down(on) {
      for (const backend of ['plain', 'waiting']) await admin(`${on ? 'disable' : 'enable'} server ${backend}/app`);
    },
    async stop() {
      const exited = new Promise((resolve) => haproxy.once('exit', resolve));
      haproxy.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each(backends)('back from behind a failing gateway, on $name', (backend) => {
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 8));
  let server: TestServer;
  let gateway: Gateway;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock.now(), silentAfterSeconds: 600, deliveryPollMs: 50 });
    gateway = await startGateway(server.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await server?.stop();
  });

  const stateEvents = async (id: string): Promise<Json[]> =>
    ((await server.admin(`/api/devices/${id}/fleet-events?limit=100`)).body.events as Json[]).filter(
      (e) => e.type === 'device.state',
    );
  const namedQuiet = (id: string) =>
    until(`the silence check naming ${id}`, async () => (await stateEvents(id)).some((e) => e.data.inferred === true));

  it('a 503 (without, then with Retry-After) explained on return from what the device says', async () => {
    const devices = { plain: `${backend.name}-gw-503`, waiting: `${backend.name}-gw-503-ra` };
    const sdks = await Promise.all(
      (['plain', 'waiting'] as const).map(async (which) => {
        const bg = await openSdk({ clock });
        await bg.ready({
          http: { url: `${gateway[which]}/locations`, params: { device_id: devices[which] } },
        });
        await bg.start();
        for (let i = 0; i < 2; i++) {
          await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
          await bg.sync(); // the first tells it the server reads reports; the second carries one
        }
        return bg;
      }),
    );
    for (const id of Object.values(devices))
      expect((await server.admin(`/api/devices/${id}/health`)).body).toMatchObject({ inferred: false });

    await gateway.down(true);
    const statuses: number[] = [];
    for (const bg of sdks) {
      bg.onHttp((event) => statuses.push(event.status));
      await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
      await bg.sync().catch(() => undefined);
    }
    expect(new Set(statuses)).toEqual(new Set([503]));
    await clock.advance(20 * MIN);
    for (const id of Object.values(devices)) await namedQuiet(id);
    // While the gateway refuses, the server saw nothing: a likely cause, never a certain one.
    for (const id of Object.values(devices))
      expect((await server.admin(`/api/devices/${id}/health`)).body).toMatchObject({
        state: 'waiting',
        cause: 'no-network',
        inferred: true,
      });

    await gateway.down(false);
    for (const bg of sdks) await bg.sync();
    const periods = async (id: string) => (await server.admin(`/api/devices/${id}/ledger`)).body.silentPeriods;
    expect(await periods(devices.plain)).toEqual([
      expect.objectContaining({ cause: 'server-errors', inferred: false, to: new Date(clock.now()).toISOString() }),
    ]);
    expect(await periods(devices.waiting)).toEqual([
      expect.objectContaining({ cause: 'retry-after', inferred: false, to: new Date(clock.now()).toISOString() }),
    ]);
  });

  it('a likely cause confirmed by the device is a change of state (history and device.state)', async () => {
    const id = `${backend.name}-likely-certain`;
    const headers = (report: Parameters<typeof formatHealthHeader>[0]) => ({
      'x-device-id': id,
      'waypost-health': formatHealthHeader({ tracking: true, wifiOnly: true, motion: { moving: true }, ...report }),
    });
    expect((await server.post('/locations', { location: record('c1') }, headers({ network: 'wifi' }))).status).toBe(
      200,
    );
    await clock.advance(20 * MIN);
    await namedQuiet(id);
    expect((await server.admin(`/api/devices/${id}/health`)).body).toMatchObject({
      state: 'waiting',
      cause: 'wifi-only',
      inferred: true,
    });
    // A manual sync on cellular: its report says the Wi-Fi-only hold itself.
    const back = headers({ network: 'cellular', hold: { kind: 'wifi' } });
    expect((await server.post('/locations', { location: record('c2') }, back)).status).toBe(200);
    expect((await stateEvents(id)).at(-1)).toMatchObject({
      data: {
        state: 'waiting',
        cause: 'wifi-only',
        inferred: false,
        previous: { state: 'waiting', cause: 'wifi-only' },
      },
    });
    expect((await server.admin(`/api/devices/${id}/health`)).body.history[0]).toMatchObject({
      state: 'waiting',
      cause: 'wifi-only',
      inferred: false,
    });
  });
});
