// Every silence named from what the server really sees (issue 39): a fleet of real SDK instances,
// each behind its own fault point, one class of fault per device made where it happens, against a
// real server on port 0 in real time. The simulator's score is the server's answers against what
// was injected: the server names the injected cause of every device it still hears from within one
// presence interval, names a likely cause for every device the fault cut off once it is silent and
// the right cause for certain once it is back, and never a wrong cause with certainty.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Progress } from '../src/progress.js';
import { createAdminApi } from '../src/simulate/admin-api.js';
import { runFaultSimulation } from '../src/simulate/fault-run.js';
import { renderFaultSummary } from '../src/simulate/fault-summary.js';
import type { Fault } from '../src/simulate/faults.js';

const ADMIN = 'faults-admin-secret';
/** The devices' presence interval and the server's silence threshold (seconds). */
const PRESENCE_S = 4;
const SILENT_AFTER_S = 8;

// The truth per class, written here from docs/device-health.md: the cause the server should name,
// and for a device the fault cuts off, the cause its return should be explained with.
const HEARD: Record<string, string> = {
  'auth-refused': 'auth-refused',
  'server-refusal': 'records-refused',
  'device-blocked': 'device-blocked',
  'device-deleted': 'device-deleted',
  'permission-revoked': 'permission-denied',
  'provider-off': 'provider-off',
  'no-fix': 'no-fix',
  'tracking-stopped': 'tracking-stopped',
  parked: 'stationary',
  'clock-off': 'clock-off',
};
const CUT_OFF: Record<string, string> = {
  'no-network': 'no-network',
  'wifi-only-cellular': 'wifi-only',
  'network-drops': 'no-network',
  'cut-mid-body': 'no-network',
  timeouts: 'timeouts',
  'server-errors': 'server-errors',
  'retry-after': 'retry-after',
  'records-refused': 'records-refused',
  'client-errors': 'client-errors',
  'autosync-off': 'autosync-off',
  killed: 'app-terminated',
  'battery-dead': 'app-terminated',
};

describe('waypost simulate with faults made where they happen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-faults-'));
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      adminToken: ADMIN,
      database: join(dir, 'server.db'),
      silentAfterSeconds: SILENT_AFTER_S,
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scores the server against the injected truth, every class once', { timeout: 150_000 }, async () => {
    const classes = [...Object.keys(HEARD), ...Object.keys(CUT_OFF)] as Fault[];
    const summary = await runFaultSimulation({
      url: `${server.url}/locations`,
      admin: createAdminApi(server.url, ADMIN),
      // One healthy device to compare with.
      assigned: [...classes, null],
      idPrefix: 'f-',
      databaseDir: dir,
      seed: 39,
      intervalMs: 1_000,
      upload: { batchSync: true, maxBatchSize: 100, autoSyncThreshold: 0 },
      presenceInterval: PRESENCE_S,
      warmupMs: 5_000,
      progress: new Progress(new Writable({ write: (_chunk, _encoding, done) => done() })),
    });
    const report = renderFaultSummary(summary);
    const byClass = new Map(summary.devices.map((d) => [d.fault, d]));
    // The truth it scored against is the one written above.
    for (const [fault, cause] of Object.entries(HEARD)) {
      expect(byClass.get(fault as Fault), fault).toMatchObject({ truth: cause, heard: true });
    }
    for (const fault of Object.keys(CUT_OFF)) expect(byClass.get(fault as Fault)?.heard, fault).toBe(false);

    // Never a wrong cause with certainty, at any look nor in any device's history.
    expect(
      summary.devices.flatMap((d) => d.wrongCertain.map((w) => `${d.fault}: ${w}`)),
      report,
    ).toEqual([]);
    // The heard named within one presence interval (95%: with one device per class, every one).
    const late = summary.devices.filter(
      (d) => d.heard && d.fault !== null && (d.namedAfterMs === null || d.namedAfterMs > summary.boundMs),
    );
    expect(
      late.map((d) => `${d.fault}: ${d.last?.cause}`),
      report,
    ).toEqual([]);
    // The cut off: a likely cause while silent, the right cause for certain once back.
    const unexplained = summary.devices.filter(
      (d) =>
        !d.heard && (d.likely === null || d.explained?.inferred !== false || d.explained.cause !== CUT_OFF[d.fault!]),
    );
    expect(
      unexplained.map((d) => `${d.fault}: ${d.likely} / ${JSON.stringify(d.explained)}`),
      report,
    ).toEqual([]);
    // The printed score is the server's answers: every class is in the summary, with what was named.
    expect(summary.devices.filter((d) => d.fault !== null && d.last === null).map((d) => d.fault)).toEqual([]);
    expect(summary.passed).toBe(true);
  });
});
