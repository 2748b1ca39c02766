// Faults made where they happen (issue 39): a device behind its fault point (an HTTP proxy on
// 127.0.0.1) against a real server. Whatever the path does to an upload (a gateway's 422, 502 or
// 503, a reset, a request cut mid-body), the server stores nothing of it and reads no report from
// it: it is never told what was injected. A body the server itself refuses (400 TOO_DEEP) reaches
// it, and is refused by it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApi } from '../src/simulate/admin-api.js';
import { FaultProxy } from '../src/simulate/fault-proxy.js';
import { Fleet } from '../src/simulate/fleet.js';
import type { Fault } from '../src/simulate/faults.js';
import { injectFault } from '../src/simulate/inject-fault.js';

const ADMIN = 'path-admin';

describe('a fault in the network path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-fault-path-'));
  let server: RunningServer;
  let fleet: Fleet | null = null;
  let proxy: FaultProxy | null = null;
  beforeAll(async () => {
    server = await startServer({ port: 0, adminToken: ADMIN, database: join(dir, 'server.db') });
  });
  afterEach(async () => {
    await fleet?.close(2_000);
    await proxy?.close();
    fleet = proxy = null;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The class, and the status (0: no answer) the device gets for its uploads while it lasts.
  const cases: [Fault, number][] = [
    ['records-refused', 422],
    ['server-errors', 502],
    ['retry-after', 503],
    ['client-errors', 404],
    ['network-drops', 0],
    ['cut-mid-body', 0],
    ['server-refusal', 400],
  ];

  it.each(cases)(
    '%s: the device gets %d, the server stores nothing of the uploads it stopped',
    async (fault, status) => {
      const admin = createAdminApi(server.url, ADMIN);
      const id = `path-${fault}`;
      proxy = await FaultProxy.start(server.url);
      const via = proxy;
      fleet = await Fleet.create({
        url: `${server.url}/locations`,
        deviceUrl: () => via.url(`${server.url}/locations`),
        idPrefix: `${id}-`,
        devices: 1,
        databaseDir: dir,
        seed: 39,
        intervalMs: 1_000,
        upload: { batchSync: true, maxBatchSize: 100, autoSyncThreshold: 0 },
        startTime: Date.now(),
        maxRetryAfterMs: 0,
        faults: [fault],
      });
      const device = fleet.devices[0]!;
      for (let n = 0; n < 3; n++) await fleet.step();
      await device.bg.sync();
      const before = await admin.deviceHealth(device.id);
      const storedBefore = (await admin.storedRecords(device.id)).uuids;
      expect(storedBefore.size).toBe(3);

      const statuses: number[] = [];
      device.bg.onHttp((event) => statuses.push(event.status));
      await injectFault(device, fault, {
        proxy: via,
        retryAfterSeconds: 1,
        service: { revokeTokens: async () => {}, block: async () => {}, remove: async () => {} },
      });
      for (let n = 0; n < 3; n++) {
        await fleet.step();
        await device.bg.sync().catch(() => []);
      }

      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set([status]));
      // Nothing recorded since the fault was stored; the records before it are all there.
      const stored = (await admin.storedRecords(device.id)).uuids;
      expect(stored).toEqual(storedBefore);
      expect(device.ledger.recorded.size).toBe(6);
      const after = await admin.deviceHealth(device.id);
      if (fault === 'server-refusal') {
        // The server saw these requests, and refused them itself.
        expect(via.counts.stopped).toBe(0);
      } else {
        // The path stopped every upload: the server heard nothing, not even a report.
        expect(via.counts.stopped).toBeGreaterThan(0);
        expect(after?.history).toEqual(before?.history);
      }
    },
  );

  it('a black hole answers nothing: the device times out, the server sees nothing', async () => {
    const admin = createAdminApi(server.url, ADMIN);
    proxy = await FaultProxy.start(server.url);
    const via = proxy;
    fleet = await Fleet.create({
      url: `${server.url}/locations`,
      deviceUrl: () => via.url(`${server.url}/locations`),
      idPrefix: 'path-blackhole-',
      devices: 1,
      databaseDir: dir,
      seed: 39,
      intervalMs: 1_000,
      upload: { batchSync: true, maxBatchSize: 100, autoSyncThreshold: 0 },
      startTime: Date.now(),
      maxRetryAfterMs: 0,
      httpTimeoutMs: 300,
    });
    const device = fleet.devices[0]!;
    await fleet.step();
    await device.bg.sync();
    via.mode = { kind: 'blackhole' };
    const answered = new Promise<{ success: boolean; status: number; error?: string }>((resolve) =>
      device.bg.onHttp(resolve),
    );
    await fleet.step();
    expect(await answered).toMatchObject({ success: false, status: 0, error: expect.stringMatching(/http.timeout/) });
    expect(via.counts).toEqual({ forwarded: 1, stopped: 1 });
    expect((await admin.storedRecords(device.id)).uuids.size).toBe(1);
  });
});
