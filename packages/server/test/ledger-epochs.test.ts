// Sequence epochs (issue 39): a tracker whose queue database is wiped starts numbering at 1 again
// under the same device id. The ledger keeps one account per numbering, says the numbering
// restarted, and sees a hole in the new numbering that the old numbers would have covered.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../cli/src/cli.js';
import { captureIo } from '../../cli/test/support/capture-io.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

const EPOCH_ID = /^[0-9a-f]{24}$/;

/** An HTTP server on port 0 that answers 200 with `headers` and keeps what each request carried. */
async function recordingServer(headers: Record<string, string>) {
  const seen: { dropped: string | undefined; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ dropped: req.headers['waypost-dropped'] as string | undefined, body });
      res.writeHead(200, { 'content-type': 'application/json', ...headers }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/locations`, seen };
}

/** Forwards to `target`, except the n-th request (1-based) `swallow` names: answered 200, never forwarded. */
async function swallowingProxy(target: string, swallow: number) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (++requests === swallow) return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      const headers = { ...req.headers };
      delete headers.host;
      const forward = http.request(`${target}${req.url}`, { method: req.method, headers }, (reply) => {
        res.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(res);
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A Node SDK on a database file that survives close() until `wipe` removes it. */
function deviceOnDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-epoch-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const database = join(dir, 'device.db');
  return {
    open: async (url: string, deviceId: string) => {
      const bg = await createBackgroundGeolocation({ database, network: new ManualNetwork('wifi') });
      onTestFinished(() => bg.close().catch(() => undefined));
      await bg.ready({ http: { url, autoSync: false, params: { device_id: deviceId } }, reset: false });
      return bg;
    },
    /** What a reinstall or a cleared data directory does: the queue database is gone. */
    wipe: () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(database + suffix, { force: true });
    },
  };
}

describe.each(backends)('sequence epochs in the ledger, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  const ledger = async (device: string) => (await server.admin(`/api/devices/${device}/ledger`)).body;

  it('a wiped queue database starts a second account: the restart and the hole in the new numbering show', async () => {
    const device = deviceOnDisk();
    let bg = await device.open(`${server.url}/locations`, 'wiped');
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await bg.store.insertLocation({ latitude: 45, longitude: -73 + i / 1e4 }));
    expect(first.map((l) => l.sequence)).toEqual([1, 2, 3]);
    const oldEpoch = first[0]!.sequence_epoch;
    expect(oldEpoch).toMatch(EPOCH_ID);
    expect(first.map((l) => l.sequence_epoch)).toEqual([oldEpoch, oldEpoch, oldEpoch]);
    await bg.sync();
    expect(await ledger('wiped')).toMatchObject({ highestSequence: 3, missing: 0, restarted: false, epochCount: 1 });
    await bg.close();

    device.wipe();
    // The same device id, a new queue; the second upload of the new numbering never arrives.
    bg = await device.open(`${await swallowingProxy(server.url, 2)}/locations`, 'wiped');
    const second = [];
    for (let i = 0; i < 4; i++) second.push(await bg.store.insertLocation({ latitude: 46, longitude: -73 + i / 1e4 }));
    expect(second.map((l) => l.sequence)).toEqual([1, 2, 3, 4]);
    const newEpoch = second[0]!.sequence_epoch;
    expect(newEpoch).toMatch(EPOCH_ID);
    expect(newEpoch).not.toBe(oldEpoch);
    await bg.sync(); // one request per record: 2 is swallowed
    // A record destroyed in the new numbering is reported with the next upload, under its epoch.
    await bg.store.insertLocation({ latitude: 46, longitude: -73 });
    await bg.destroyLocations(); // 5
    await bg.store.insertLocation({ latitude: 46, longitude: -73 }); // 6
    await bg.sync();

    const answer = await ledger('wiped');
    expect(answer).toMatchObject({
      // Every number issued, across both numberings: 3 + 6.
      highestSequence: 9,
      received: 3 + 4,
      dropped: { ttl: 0, cap: 0, destroyed: 1 },
      missing: 1,
      missingRanges: [[2, 2]],
      restarted: true,
      epochCount: 2,
      epochs: [
        { epoch: oldEpoch, highestSequence: 3, received: 3, missing: 0, missingRanges: [] },
        {
          epoch: newEpoch,
          highestSequence: 6,
          received: 4,
          dropped: { ttl: 0, cap: 0, destroyed: 1 },
          missing: 1,
          missingRanges: [[2, 2]],
        },
      ],
    });
    const [older, current] = answer.epochs as { firstReceivedAt: number }[];
    expect(answer.restartedAt).toBe(current!.firstReceivedAt);
    expect(current!.firstReceivedAt).toBeGreaterThanOrEqual(older!.firstReceivedAt);
    // The map's gaps name the numbering of the hole.
    const gaps = (await server.admin(`/api/dashboard/devices/wiped/gaps`)).body;
    expect(gaps).toMatchObject({ gaps: [{ first: 2, last: 2, missing: 1, epoch: newEpoch }], truncated: false });
  });

  it('an older Waypost server gets drop reports in the grammar it parses, a foreign one gets none', async () => {
    // A server of issue 19 reads Waypost-Dropped but does not say it keeps numberings apart.
    const older = await recordingServer({ 'waypost-ledger': '1' });
    const foreign = await recordingServer({});
    for (const target of [older, foreign]) {
      const device = deviceOnDisk();
      const bg = await device.open(target.url, 'd1');
      await bg.store.insertLocation({ latitude: 45, longitude: -73 });
      await bg.destroyLocations(); // 1
      await bg.store.insertLocation({ latitude: 45, longitude: -73 }); // 2: the first upload
      await bg.sync();
      await bg.store.insertLocation({ latitude: 45, longitude: -73 }); // 3: after the server spoke
      await bg.sync();
      await bg.close();
    }
    expect(older.seen.map((s) => s.dropped)).toEqual([undefined, 'destroyed=1']);
    expect(foreign.seen.map((s) => s.dropped)).toEqual([undefined, undefined]);
    // The records are the default schema as before, with the epoch beside the number.
    for (const { body } of [...older.seen, ...foreign.seen]) {
      const { location } = JSON.parse(body) as { location: Record<string, unknown> };
      expect(Object.keys(location).slice(-2)).toEqual(['sequence', 'sequence_epoch']);
      expect(location.sequence_epoch).toMatch(EPOCH_ID);
    }
  });

  it('numbers without an epoch (an older SDK, another tracker) keep one account, and a later epoch starts another', async () => {
    const post = (sequence: number, epoch?: string) =>
      server.post('/locations', {
        device_id: 'upgraded',
        location: {
          uuid: `u-${epoch ?? 'none'}-${sequence}`,
          timestamp: new Date(Date.UTC(2026, 5, 1, 0, sequence)).toISOString(),
          coords: { latitude: 45, longitude: -73 },
          sequence,
          ...(epoch === undefined ? {} : { sequence_epoch: epoch }),
        },
      });
    for (const n of [1, 2, 3]) expect((await post(n)).status).toBe(200);
    expect(await ledger('upgraded')).toMatchObject({
      highestSequence: 3,
      missing: 0,
      restarted: false,
      restartedAt: null,
      epochs: [{ epoch: null, highestSequence: 3 }],
    });
    // The same numbers under an epoch: a numbering of their own, with 2 missing.
    for (const n of [1, 3]) expect((await post(n, 'second-queue')).status).toBe(200);
    expect(await ledger('upgraded')).toMatchObject({
      highestSequence: 6,
      missing: 1,
      missingRanges: [[2, 2]],
      restarted: true,
      epochs: [
        { epoch: null, highestSequence: 3, missing: 0 },
        { epoch: 'second-queue', highestSequence: 3, received: 2, missing: 1 },
      ],
    });
  });

  it('a drop report names its numbering; one that names none (a proxy kept the answer from the SDK) goes to the numbering in use', async () => {
    const upload = (epoch: string, sequences: number[], dropped?: string) =>
      server.post(
        '/locations',
        {
          device_id: 'reports',
          location: sequences.map((sequence) => ({
            uuid: `r-${epoch}-${sequence}`,
            timestamp: new Date(Date.UTC(2026, 5, 1, 0, sequence)).toISOString(),
            coords: { latitude: 45, longitude: -73 },
            sequence,
            sequence_epoch: epoch,
          })),
        },
        dropped === undefined ? {} : { 'waypost-dropped': dropped },
      );
    expect((await upload('queue-a', [1, 2])).status).toBe(200);
    expect((await upload('queue-a', [5], 'cap=3-4')).status).toBe(200);
    expect((await upload('queue-b', [1])).status).toBe(200);
    expect((await upload('queue-b', [3], 'epoch=queue-b;destroyed=2')).status).toBe(200);
    // Not an epoch: the whole header is ignored, the upload is not.
    expect((await upload('queue-b', [5], 'epoch=not one!;ttl=4')).status).toBe(200);
    expect(await ledger('reports')).toMatchObject({
      missing: 1,
      epochs: [
        { epoch: 'queue-a', highestSequence: 5, dropped: { cap: 2 }, missing: 0 },
        {
          epoch: 'queue-b',
          highestSequence: 5,
          dropped: { destroyed: 1, ttl: 0 },
          missing: 1,
          missingRanges: [[4, 4]],
        },
      ],
    });
  });

  it('two `waypost simulate` runs against the same server: the device reads as restarted, nothing missing', async () => {
    const run = async (seed: string) => {
      const io = captureIo();
      const flags = ['--devices', '1', '--duration', '1m', '--speedup', '0', '--interval', '5', '--seed', seed];
      // The same device ids both runs (each run has its own unless told): a queue numbering again.
      flags.push('--device-prefix', 'sim-');
      const code = await main(['simulate', '--url', `${server.url}/locations`, ...flags, '--json'], io);
      expect(code, io.err()).toBe(0);
      return (JSON.parse(io.out()) as { devices: { recorded: number }[] }).devices[0]!.recorded;
    };
    const first = await run('1');
    const second = await run('2');
    expect(await ledger('sim-1')).toMatchObject({
      highestSequence: first + second,
      missing: 0,
      restarted: true,
      epochCount: 2,
      epochs: [
        { highestSequence: first, missing: 0 },
        { highestSequence: second, missing: 0 },
      ],
    });
  });
});
