import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createBackgroundGeolocation, ManualNetwork, openSqliteStore } from '@waypost/node';
import { startServer } from '@waypost/server';
import { epochSentences, straightTrack } from '../../node/test/providers/support/nmea-writer.js';
import { openLiveFeed } from '../../server/test/helpers/live-feed.js';
import { main } from '../src/cli.js';
import { spawnAgent, startNmeaFeed } from './support/agent-process.js';
import { captureIo } from './support/capture-io.js';

/**
 * For the tests that wait on several bounded steps in turn (a feed, the server, then the exit):
 * their sum passes the default 30 s, and a named bound must fail first, not vitest's timeout.
 */
const WITH_NAMED_BOUNDS_MS = 60_000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-agent-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function waypostServer() {
  const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
  onTestFinished(() => server.close());
  // The server's live feed (a dashboard's) announces each upload it stores: the test awaits those.
  const live = await openLiveFeed(server.url, 'adm');
  onTestFinished(() => live.close());
  const positions = async (device: string) => {
    const response = await fetch(`${server.url}/api/devices/${device}/locations`, {
      headers: { authorization: 'Bearer adm' },
    });
    return response.status === 404 ? [] : ((await response.json()) as StoredRow[]);
  };
  /** Resolves with the device's stored positions once the server has announced `count` of them. */
  const stored = async (device: string, count: number) => {
    await live.storedAtLeast(device, count, 20_000);
    return positions(device);
  };
  return { url: server.url, positions, stored };
}

interface StoredRow {
  uuid: string;
  latitude: number;
  longitude: number;
  timestamp: string;
  record: { extras: Record<string, unknown>; coords: { accuracy: number; speed: number } };
}

/** NMEA times have centiseconds at best; whole seconds compare exactly. */
const wholeSecondsAgo = (seconds: number) => Math.floor(Date.now() / 1000) * 1000 - seconds * 1000;

const EXAMPLE_GPX = fileURLToPath(new URL('../../../examples/track.gpx', import.meta.url));

function configFile(content: unknown): string {
  const path = join(dir, 'agent.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('waypost agent: command line', () => {
  it.each([
    [[], /--source is required/],
    [['--source', 'serial:/dev/ttyUSB0'], /--source: source "serial:\/dev\/ttyUSB0" is not one of: gpsd:\/\//],
    [['--source', 'gpx:t.gpx', '--replay-speed=-1'], /--replay-speed "-1" is not a number of at least 0/],
    [['--source', 'gpsd://127.0.0.1:2947', '--exit-when-done'], /--exit-when-done needs a file source/],
    [['--source', 'gpsd://', '--shutdown-timeout', 'soon'], /--shutdown-timeout "soon" is not a duration/],
    [['--source', 'gpsd://', '--url', 'ftp://x'], /http\.url/],
    [['--source', 'gpsd://', '--bogus'], /unknown flag --bogus/],
    [
      ['--source', `gpx:${EXAMPLE_GPX}`, '--exit-when-done', '--database', ':memory:'],
      /--exit-when-done .* no http\.url is configured/,
    ],
    [['--source', 'gpx:./missing.gpx', '--exit-when-done'], /--source gpx:\.\/missing\.gpx: ENOENT/],
    [['--source', 'nmea-file:/nonexistent/log.nmea'], /--source nmea-file:\/nonexistent\/log\.nmea: ENOENT/],
    [['--source', 'gpsd://', '--device-id', ''], /--device-id must be 1 to 200 characters/],
    [['--source', 'gpsd://', '--give-up-after', 'never'], /--give-up-after "never" is not a duration/],
  ])('%j exits 2 naming the problem', async (args, message) => {
    const io = captureIo();
    expect(await main(['agent', ...args], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('a --config file: bad JSON, an unknown SDK key and a mistyped agent key exit 2 naming them', async () => {
    const cases: [string, RegExp][] = [
      ['{"source": "gpsd://",', /is not valid JSON/],
      [
        JSON.stringify({ source: 'gpsd://', htp: { url: 'http://x' } }),
        /htp: unknown configuration key\. Did you mean http/,
      ],
      [JSON.stringify({ source: 'gpsd://', http: { autoSyncThreshold: 'x' } }), /http\.autoSyncThreshold/],
      [JSON.stringify({ source: 5 }), /source must be a string, got 5/],
      [JSON.stringify(['gpsd://']), /must hold a JSON object/],
    ];
    for (const [text, message] of cases) {
      const path = join(dir, 'bad.json');
      writeFileSync(path, text);
      const io = captureIo();
      expect(await main(['agent', '--config', path], io)).toBe(2);
      expect(io.err()).toMatch(message);
    }
    const io = captureIo();
    expect(await main(['agent', '--config', join(dir, 'missing.json')], io)).toBe(2);
    expect(io.err()).toMatch(/missing\.json: ENOENT/);
  });

  it('--print-systemd-unit prints a unit that restarts always, after the network and gpsd, with absolute paths', async () => {
    const io = captureIo();
    const code = await main(
      [
        'agent',
        '--source',
        'gpsd://127.0.0.1:2947',
        '--database',
        'rel/queue.db',
        '--url',
        'https://ingest.example/locations',
        '--print-systemd-unit',
      ],
      io,
    );
    expect(code).toBe(0);
    const unit = io.out();
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^After=network-online\.target gpsd\.socket gpsd\.service$/m);
    expect(unit).toMatch(/^Wants=network-online\.target gpsd\.socket$/m);
    expect(unit).toMatch(/^WantedBy=multi-user\.target$/m);
    const execStart = /^ExecStart=(.*)$/m.exec(unit)![1]!;
    expect(execStart).toContain(
      ' agent --source gpsd://127.0.0.1:2947 --url https://ingest.example/locations --database /',
    );
    expect(execStart).toContain(join(process.cwd(), 'rel/queue.db'));
    expect(execStart.startsWith(`${process.execPath} /`)).toBe(true);
  });

  it('--print-systemd-unit for a GPX source: the file made absolute, and no gpsd wanted', async () => {
    const gpx = join(dir, 'ride.gpx');
    writeFileSync(gpx, '<gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>');
    const io = captureIo();
    const code = await main(
      [
        'agent',
        '--source',
        `gpx:${relative(process.cwd(), gpx)}`,
        '--url',
        'https://ingest.example/locations',
        '--print-systemd-unit',
      ],
      io,
    );
    expect(code).toBe(0);
    const unit = io.out();
    expect(/^ExecStart=(.*)$/m.exec(unit)![1]).toContain(` agent --source gpx:${gpx} --url `);
    expect(unit).toMatch(/^Wants=network-online\.target$/m);
    expect(unit).toMatch(/^After=network-online\.target$/m);
    expect(unit).not.toContain('gpsd');
  });
});

describe('waypost agent: a running service', () => {
  it('replays a GPX file at full speed into the real service, then exits 0 with the queue empty', async () => {
    const server = await waypostServer();
    const t0 = Date.UTC(2026, 4, 17, 9, 0, 0);
    const points = Array.from({ length: 25 }, (_, i) => ({ lat: 52.52 + i * 0.0003, lon: 13.405, t: t0 + i * 5000 }));
    const gpx = join(dir, 'ride.gpx');
    writeFileSync(
      gpx,
      `<gpx version="1.1"><trk><trkseg>${points
        .map(
          (p) => `<trkpt lat="${p.lat.toFixed(6)}" lon="${p.lon}"><time>${new Date(p.t).toISOString()}</time></trkpt>`,
        )
        .join('')}</trkseg></trk></gpx>`,
    );
    const config = configFile({ http: { params: { device_id: 'gpx-1' }, batchSync: true, autoSyncThreshold: 10 } });
    const agent = spawnAgent([
      '--config',
      config,
      '--database',
      join(dir, 'agent.db'),
      '--url',
      `${server.url}/locations`,
      '--source',
      `gpx:${gpx}`,
      '--replay-speed',
      '0',
      '--exit-when-done',
    ]);
    expect(await agent.exited).toEqual([0, null]);
    expect(agent.stderr()).toMatch(/source gpx .*ride\.gpx exhausted/);
    const stored = await server.positions('gpx-1');
    expect(stored.map((r) => [r.latitude, r.longitude, Date.parse(r.timestamp)])).toEqual(
      points.map((p) => [Number(p.lat.toFixed(6)), p.lon, p.t]),
    );
    // Derived from consecutive points: 0.0003 degrees of latitude (33.4 m) in 5 s.
    expect(stored[3]!.record.coords.speed).toBeCloseTo(6.67, 1);
    const store = openSqliteStore(join(dir, 'agent.db'));
    expect(await store.locations.count()).toBe(0);
    await store.close();
  });

  it(
    'a source that goes away is retried and logged; fixes flow again when it is back',
    async () => {
      const server = await waypostServer();
      const feed = await startNmeaFeed();
      const config = configFile({ http: { params: { device_id: 'tcp-1' } } });
      const agent = spawnAgent([
        '--config',
        config,
        '--database',
        join(dir, 'agent.db'),
        '--url',
        `${server.url}/locations`,
        '--source',
        `nmea-tcp://127.0.0.1:${feed.port}`,
      ]);
      await agent.waitFor(/started; source nmea-tcp/);
      await feed.connected();
      const track = straightTrack(6, wholeSecondsAgo(60));
      feed.send(track.slice(0, 3).flatMap((p) => epochSentences(p)));
      // The third epoch ends when the next begins, so two are delivered now.
      expect(await server.stored('tcp-1', 2)).toHaveLength(2);

      await feed.down();
      await agent.waitFor(/source nmea-tcp 127\.0\.0\.1:\d+: SOURCE_LOST/);
      // The epoch in progress when the connection dropped is complete as far as anyone knows: kept.
      expect(await server.stored('tcp-1', 3)).toHaveLength(3);
      // One line with the source named once and the failure's code.
      await agent.waitFor(
        /^waypost agent: source nmea-tcp 127\.0\.0\.1:\d+: SOURCE_UNAVAILABLE: connect ECONNREFUSED /m,
      );
      await feed.up();
      await feed.connected();
      feed.send(track.slice(3).flatMap((p) => epochSentences(p)));
      // Positions after the reconnection.
      const stored = await server.stored('tcp-1', 5);
      expect(stored.map((r) => Date.parse(r.timestamp))).toEqual(track.slice(0, 5).map((p) => p.time));
      expect(stored[0]!.record.coords.accuracy).toBe(2.77); // from the receiver's GST

      agent.child.kill('SIGTERM');
      expect(await agent.exited).toEqual([0, null]);
      expect(agent.stderr()).toMatch(/SIGTERM: stopping[\s\S]*closed\n$/);
    },
    WITH_NAMED_BOUNDS_MS,
  );

  it(
    'a second process changing the configuration through the shared database is seen by the running agent',
    async () => {
      const server = await waypostServer();
      const feed = await startNmeaFeed();
      const database = join(dir, 'agent.db');
      const config = configFile({ http: { params: { device_id: 'cfg-1' } }, persistence: { extras: { fleet: 'A' } } });
      const agent = spawnAgent([
        '--config',
        config,
        '--database',
        database,
        '--url',
        `${server.url}/locations`,
        '--source',
        `nmea-tcp://127.0.0.1:${feed.port}`,
      ]);
      await agent.waitFor(/started; source/);
      await feed.connected();
      const track = straightTrack(4, wholeSecondsAgo(60));
      feed.send(track.slice(0, 2).flatMap((p) => epochSentences(p)));
      expect(await server.stored('cfg-1', 1)).toHaveLength(1);

      // An app process: opens the same database, changes the configuration, reads the queue, leaves.
      const app = await createBackgroundGeolocation({ database, network: new ManualNetwork('wifi') });
      expect((await app.getState()).persistence.extras).toEqual({ fleet: 'A' });
      await app.setConfig({ persistence: { extras: { fleet: 'B' } } });
      expect(await app.getCount()).toBeGreaterThanOrEqual(0);
      await app.close();

      await agent.waitFor(/configuration changed by another process: persistence\.extras/);
      feed.send(track.slice(2).flatMap((p) => epochSentences(p)));
      const stored = await server.stored('cfg-1', 3); // positions after the change
      // A record is rendered when it is recorded: the second epoch ended (and was recorded) only
      // when the third began, after the change.
      expect(stored.map((r) => r.record.extras['fleet'])).toEqual(['A', 'B', 'B']);
      agent.child.kill('SIGTERM');
      expect((await agent.exited)[0]).toBe(0);
    },
    WITH_NAMED_BOUNDS_MS,
  );
});
