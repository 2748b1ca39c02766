import { expect } from 'vitest';
import type { BackgroundGeolocation, ConfigInput, HttpEvent } from '../../src/index.js';
import { at } from '../../src/testing/index.js';

/**
 * Issue 17's sweep: the upload engine over a grid of `http` configurations. Whatever the
 * configuration, every record recorded reaches the server exactly once, in the order recorded, and
 * the queue ends empty. Vitest runs the grid on the test kit (packages/sdk/test/upload-sweep.test.ts)
 * and on SQLite over a socket (packages/node/test/upload-sweep.test.ts); automatic uploads are
 * awaited with idle().
 */
export interface SweepCase {
  batchSync: boolean;
  maxBatchSize: number;
  autoSyncThreshold: number;
  rootProperty: string;
  method: 'POST' | 'PUT';
  autoSync: boolean;
}

/** What a case runs on: an SDK readied with sweepConfig(case), the server it uploads to, its onHttp events. */
export interface SweepEngine {
  bg: BackgroundGeolocation;
  server: { readonly requests: readonly { method: string; body: unknown }[] };
  http: readonly HttpEvent[];
}

const RECORDS = 12;

function buildGrid(): SweepCase[] {
  const grid: SweepCase[] = [];
  for (const [batchSync, maxBatchSize] of [
    [false, -1],
    [true, -1],
    [true, 1],
    [true, 7],
    [true, 1000],
  ] as const) {
    for (const autoSyncThreshold of [0, 5]) {
      for (const rootProperty of ['location', 'data', '.']) {
        for (const method of ['POST', 'PUT'] as const) {
          for (const autoSync of [true, false]) {
            if (!autoSync && autoSyncThreshold > 0) continue; // the threshold is for automatic uploads
            grid.push({ batchSync, maxBatchSize, autoSyncThreshold, rootProperty, method, autoSync });
          }
        }
      }
    }
  }
  return grid;
}

/** The grid as `it.each` rows: [the case as JSON (the test's name), the case]. */
export const SWEEP_CASES: readonly (readonly [string, SweepCase])[] = buildGrid().map((c) => [JSON.stringify(c), c]);

/** The configuration a case's SDK is readied with (the harness adds the server's url). */
export function sweepConfig(c: SweepCase): ConfigInput {
  return { http: { ...c, params: { device_id: 'sweep' } } };
}

/** The uuids a request carried, under its root property (the body itself for "."). */
function uuidsOf(body: unknown, rootProperty: string): string[] {
  const payload = rootProperty === '.' ? body : (body as Record<string, unknown>)[rootProperty];
  return (Array.isArray(payload) ? payload : [payload]).map((r) => (r as { uuid: string }).uuid);
}

/** Records, uploads (automatically or with sync()) and checks what reached the server. */
export async function runSweepCase(c: SweepCase, { bg, server, http }: SweepEngine): Promise<void> {
  await bg.start();
  const recorded: string[] = [];
  bg.onMotionChange((event) => recorded.push(event.location.uuid));
  for (let i = 0; i < RECORDS; i++) recorded.push((await bg.recordLocation(at(i))).uuid);
  if (c.autoSync) {
    // Below the threshold records wait; a motion change uploads everything (spec 3 rule 3).
    if (c.autoSyncThreshold > 0) await bg.changePace(true);
    await bg.idle();
  } else {
    expect(server.requests).toHaveLength(0); // rule 4: nothing moves without sync()
    // One sync() uploads the whole queue; a queue that never empties (records sent again after
    // a 2xx) fails here, named, instead of looping until the test's timeout.
    for (let round = 0; (await bg.getCount()) > 0; round++) {
      if (round > RECORDS) throw new Error(`${await bg.getCount()} record(s) still queued after ${round} sync() calls`);
      await bg.sync();
    }
  }
  const sent = server.requests.flatMap((r) => uuidsOf(r.body, c.rootProperty));
  expect(sent).toEqual(recorded);
  expect(new Set(server.requests.map((r) => r.method))).toEqual(new Set([c.method]));
  if (c.batchSync && c.maxBatchSize > 0) {
    expect(Math.max(...server.requests.map((r) => uuidsOf(r.body, c.rootProperty).length))).toBeLessThanOrEqual(
      c.maxBatchSize,
    );
  }
  if (!c.batchSync) expect(server.requests.every((r) => uuidsOf(r.body, c.rootProperty).length === 1)).toBe(true);
  expect(http.every((e) => e.success)).toBe(true);
  expect(await bg.getCount()).toBe(0);
}
