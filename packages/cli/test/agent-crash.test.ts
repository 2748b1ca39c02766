import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createBackgroundGeolocation, ManualNetwork, openSqliteStore } from '@waypost/node';
import { uuidsOf } from '../../node/test/support/harness.js';
import { startScriptedServer } from '../../node/test/support/scripted-server.js';
import { epochSentences, straightTrack } from '../../node/test/providers/support/nmea-writer.js';
import { decideLaunch } from '../src/agent/launch.js';
import { spawnAgent, startNmeaFeed } from './support/agent-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-agent-crash-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function rows(database: string) {
  const store = openSqliteStore(database);
  try {
    return await store.locations.list({ order: 'ASC' });
  } finally {
    await store.close();
  }
}

function configFile(content: unknown): string {
  const path = join(dir, 'agent.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('waypost agent: killed and stopped', () => {
  it('SIGKILL mid-upload, then restarted: nothing lost, nothing left locked, everything delivered', async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    server.setDefault({ status: 200, json: {}, delayMs: 150 }); // slow: an upload is always in flight
    const feed = await startNmeaFeed();
    const database = join(dir, 'agent.db');
    const config = configFile({ http: { batchSync: true, maxBatchSize: 3 }, geolocation: { stationaryRadius: 1000 } });
    const args = [
      '--config',
      config,
      '--database',
      database,
      '--url',
      server.url,
      '--source',
      `nmea-tcp://127.0.0.1:${feed.port}`,
    ];
    const agent = spawnAgent(args);
    await agent.waitFor(/started; source/);
    await feed.connected();

    // A receiver at 10 Hz (bounded: the kill comes long before the end of the track).
    const track = straightTrack(2_000, Math.floor(Date.now() / 1000) * 1000 - 600_000, 100);
    let next = 0;
    const ticker = setInterval(() => next < track.length && feed.send(epochSentences(track[next++]!)), 10);
    onTestFinished(() => clearInterval(ticker));
    await server.when(() => server.requests.length >= 3 && server.pending > 0); // three uploads, one in flight
    agent.child.kill('SIGKILL');
    expect(await agent.exited).toEqual([null, 'SIGKILL']);
    clearInterval(ticker);

    const atKill = await rows(database);
    expect(atKill.some((r) => r.locked)).toBe(true);
    const delivered = new Set(server.requests.filter((r) => r.answered === 200).flatMap((r) => uuidsOf(r.body)));
    expect(delivered.size).toBeGreaterThan(0);

    server.setDefault({ status: 200, json: {} });
    const restarted = spawnAgent(args);
    await restarted.waitFor(/started; source/);
    const accepted = () => new Set(server.requests.filter((r) => r.answered === 200).flatMap((r) => uuidsOf(r.body)));
    // The restarted agent uploads what the crash left queued: awaited as the server accepts it.
    await server.when(
      () => atKill.every((row) => accepted().has(row.uuid)),
      () => `records lost: ${atKill.filter((row) => !accepted().has(row.uuid)).map((row) => row.uuid)}`,
    );
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toEqual([0, null]);
    // Closing waited for the upload in flight: the queue is empty, nothing was recorded again.
    expect(await rows(database)).toEqual([]);
    const received = accepted();
    expect(received.size).toBe(new Set([...delivered, ...atKill.map((r) => r.uuid)]).size);
  });

  it('SIGTERM with an upload hanging: exits 0 within its bound and leaves the records queued, unlocked', async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    server.setDefault({ hang: true });
    const feed = await startNmeaFeed();
    const database = join(dir, 'agent.db');
    const agent = spawnAgent([
      '--database',
      database,
      '--url',
      server.url,
      '--source',
      `nmea-tcp://127.0.0.1:${feed.port}`,
      '--shutdown-timeout',
      '1s',
    ]);
    await agent.waitFor(/started; source/);
    await feed.connected();
    feed.send(straightTrack(2).flatMap((p) => epochSentences(p)));
    await server.holding(1); // an upload in flight
    expect(server.pending).toBe(1);
    expect((await rows(database)).map((r) => r.locked)).toEqual([true]);

    agent.child.kill('SIGTERM');
    // Bounded: the agent's own bound is 1 s; the test's timeout allows far more on a loaded machine.
    expect(await agent.exited).toEqual([0, null]);
    expect(agent.stderr()).toMatch(
      /closing took over 1000 ms: 1 record\(s\) of the upload in flight released; exiting/,
    );
    expect((await rows(database)).map((r) => r.locked)).toEqual([false]);
  });

  it.each([
    [true, false],
    [false, true],
  ])('stopOnTerminate %s: after SIGTERM an app sees tracking enabled = %s', async (stopOnTerminate, enabled) => {
    const feed = await startNmeaFeed();
    const database = join(dir, 'agent.db');
    const config = configFile({ app: { stopOnTerminate } });
    const agent = spawnAgent([
      '--config',
      config,
      '--database',
      database,
      '--source',
      `nmea-tcp://127.0.0.1:${feed.port}`,
    ]);
    await agent.waitFor(/started; source .*no http\.url: queueing only/);
    agent.child.kill('SIGTERM');
    expect(await agent.exited, agent.stderr()).toEqual([0, null]);
    expect(agent.stderr()).toMatch(/closed\n$/);
    const app = await createBackgroundGeolocation({ database, network: new ManualNetwork('none') });
    expect((await app.getState()).enabled).toBe(enabled);
    await app.close();
  });
});

describe('whether the agent tracks when it starts', () => {
  const boot = (
    bootId: string | undefined,
    lastBootId: string | undefined,
    wasTracking: boolean,
    startOnBoot: boolean,
  ) => decideLaunch({ bootId, lastBootId, wasTracking, startOnBoot });

  it.each([
    ['first start ever', boot('b1', undefined, false, false), true],
    ['restarted in the same boot (crash, systemctl restart)', boot('b1', 'b1', false, false), true],
    ['boot id unknown: treated as the same boot', boot(undefined, 'b1', false, false), true],
    ['after a reboot, startOnBoot and tracking at shutdown', boot('b2', 'b1', true, true), true],
    ['after a reboot without startOnBoot', boot('b2', 'b1', true, false), false],
    ['after a reboot, stopped at shutdown (stopOnTerminate)', boot('b2', 'b1', false, true), false],
  ])('%s', (_name, decision, track) => {
    expect(decision.track).toBe(track);
    if (!track) expect(decision.reason).toMatch(/^not tracking after a reboot: /);
  });
});
