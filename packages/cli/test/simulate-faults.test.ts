// Every silent device explained (issue 31): a fleet of real SDK instances, one injected class of
// silence per device and several devices per class, against a real server on the same simulated
// clock. Within one presence interval after the faults plus the server's silence threshold, the
// server names the injected cause for at least 95% of the devices, and never a wrong cause with
// certainty: a device that still reaches the server is named from its own report (inferred:
// false), one the fault cuts off from its last report (inferred: true).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS, type Fault } from '../src/simulate/faults.js';
import { Fleet, runFleet } from '../src/simulate/fleet.js';

const PER_CLASS = 3;
const START = Date.UTC(2026, 10, 26, 7);
const MIN = 60_000;
/** The devices' presence interval and the server's silence threshold (seconds). */
const PRESENCE_S = 600;
const SILENT_AFTER_S = 1200;

interface Named {
  id: string;
  state: string;
  cause: string;
  inferred: boolean;
}

describe('waypost simulate with injected faults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-faults-'));
  let server: RunningServer;
  let fleet: Fleet | null = null;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      adminToken: 'admin-secret',
      database: join(dir, 'server.db'),
      now: () => fleet?.clock.now() ?? START,
      silentAfterSeconds: SILENT_AFTER_S,
    });
  });
  afterAll(async () => {
    await fleet?.close(5_000);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the injected cause of each silent device', { timeout: 180_000 }, async () => {
    fleet = await Fleet.create({
      url: `${server.url}/locations`,
      devices: FAULT_NAMES.length * PER_CLASS,
      databaseDir: dir,
      seed: 31,
      intervalMs: 120_000,
      upload: { batchSync: true, maxBatchSize: 100, autoSyncThreshold: 0 },
      startTime: START,
      maxRetryAfterMs: 0,
      faults: FAULT_NAMES,
      presenceInterval: PRESENCE_S,
    });
    // Six healthy minutes (every device has uploaded, and heard that the server reads reports).
    await runFleet(fleet, { durationMs: 6 * MIN, speedup: Infinity });
    for (const device of fleet.devices) await device.bg.sync().catch(() => []);
    const given = await fleet.injectFaults();
    // One presence interval, and the silence threshold for the devices the faults cut off.
    await runFleet(fleet, { durationMs: (SILENT_AFTER_S + PRESENCE_S) * 1000, speedup: Infinity });

    const response = await fetch(`${server.url}/api/health`, { headers: { authorization: 'Bearer admin-secret' } });
    const named = new Map(((await response.json()) as { devices: Named[] }).devices.map((d) => [d.id, d]));
    const wrongForSure: string[] = [];
    const missed: string[] = [];
    for (const [id, fault] of given) {
      const expected = FAULTS[fault];
      const got = named.get(id);
      const line = `${id} ${fault}: ${got ? `${got.state}/${got.cause} inferred=${got.inferred}` : 'not listed'}`;
      if (got?.cause !== expected.cause || got.inferred !== !expected.reported) missed.push(line);
      if (got && !got.inferred && got.cause !== expected.cause) wrongForSure.push(line);
    }
    expect(wrongForSure).toEqual([]);
    expect(missed.length / given.size, missed.join('\n')).toBeLessThanOrEqual(0.05);
    // Every class was given to PER_CLASS devices.
    const perClass = new Map<Fault, number>();
    for (const fault of given.values()) perClass.set(fault, (perClass.get(fault) ?? 0) + 1);
    expect([...perClass.values()]).toEqual(FAULT_NAMES.map(() => PER_CLASS));
  });
});
