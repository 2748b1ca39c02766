import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { at, syncUntilEmpty } from './support/harness.js';
import type { Fault } from './support/fault-proxy.js';
import { startFaultyFleet } from './support/faulty-fleet.js';

const FAULTS: Fault[] = [
  'reset',
  'stall',
  'lose-reply',
  'status-500',
  'status-503',
  'status-429',
  'status-413',
  'garbage-502',
  'pass',
];

describe('the fault proxy: several instances behind a proxy that misbehaves, then heals', () => {
  it('every uuid is stored exactly once, queues end empty, nothing stays locked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-fault-'));
    // The service itself refuses more than 5 records per request (a real 413).
    const service = await startServer({ port: 0, database: join(dir, 'server.db'), maxRecordsPerRequest: 5 });
    onTestFinished(async () => {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const { proxy, devices } = await startFaultyFleet({
      dir,
      target: `${service.url}/locations`,
      faults: FAULTS,
      seed: 8,
      variants: [
        { batchSync: true, maxBatchSize: -1 },
        { batchSync: true, maxBatchSize: 7 },
        { batchSync: false },
        { batchSync: false, autoSyncThreshold: 3 },
      ],
      deviceId: (i) => `fault-device-${i}`,
      createOptions: (id) => ({ device: { uuid: id } }),
    });
    const instances = devices.map(({ bg, id }) => ({ bg, device: id, uuids: [] as string[] }));

    // Misbehaving: 6 rounds of 5 locations per instance, automatic uploads plus a sync() each round.
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        instances.map(async (instance, i) => {
          for (let k = 0; k < 5; k++) {
            const location = await instance.bg.recordLocation(at(round * 5 + k + i * 1000));
            instance.uuids.push(location.uuid);
          }
          await instance.bg.sync().catch(() => undefined);
        }),
      );
    }
    expect(proxy.seen.size).toBeGreaterThanOrEqual(FAULTS.length - 1);

    // Healed: every queue drains (bounded: a few sync() calls each).
    proxy.choose = () => 'pass';
    for (const { bg } of instances) {
      await bg.idle();
      await syncUntilEmpty(bg, 5);
      await bg.idle();
      expect(await bg.getCount()).toBe(0);
      // Nothing is left locked: the raw queue is empty, not only its unlocked part.
      expect(await bg.getLocations()).toEqual([]);
    }

    for (const { device, uuids } of instances) {
      const response = await fetch(`${service.url}/api/devices/${device}/locations?limit=100000`, {
        headers: { authorization: `Bearer ${service.adminToken}` },
      });
      const stored = ((await response.json()) as { uuid: string }[]).map((r) => r.uuid);
      expect(stored.length).toBe(new Set(stored).size);
      expect([...stored].sort()).toEqual([...uuids].sort());
    }
  }, 60_000);
});
