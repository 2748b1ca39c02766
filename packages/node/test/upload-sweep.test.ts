// Issue 17's sweep: the upload engine over a grid of `http` configurations, end to end on the
// SQLite store and Node's fetch over a socket (the same grid on the sdk's test kit:
// packages/sdk/test/upload-sweep.test.ts). Whatever the configuration, every record recorded reaches the server exactly once,
// in the order recorded, and the queue ends empty. Uploads are awaited through onHttp, not polled.
import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, ConfigInput } from '@waypost/node';
import { at, startHarness } from './support/harness.js';

const RECORDS = 12;

interface Case {
  batchSync: boolean;
  maxBatchSize: number;
  autoSyncThreshold: number;
  rootProperty: string;
  method: 'POST' | 'PUT';
  autoSync: boolean;
}

const grid: Case[] = [];
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

/** The uuids a request carried, under its root property (the body itself for "."). */
function uuidsOf(body: unknown, rootProperty: string): string[] {
  const payload = rootProperty === '.' ? body : (body as Record<string, unknown>)[rootProperty];
  return (Array.isArray(payload) ? payload : [payload]).map((r) => (r as { uuid: string }).uuid);
}

/** Resolves once the queue is empty, woken by each upload's onHttp event. */
async function drained(bg: BackgroundGeolocation): Promise<void> {
  for (;;) {
    const next = new Promise<void>((resolve) => {
      const subscription = bg.onHttp(() => {
        subscription.remove();
        resolve();
      });
    });
    if ((await bg.getCount()) === 0) return;
    await next;
  }
}

describe('upload sweep on the SQLite store', () => {
  it.each(grid.map((c) => [JSON.stringify(c), c] as const))('%s', async (_name, c) => {
    const config: ConfigInput = { http: { ...c, params: { device_id: 'sweep' } } };
    const { bg, server, http } = await startHarness(config);
    await bg.start();
    const recorded: string[] = [];
    bg.onMotionChange((event) => recorded.push(event.location.uuid));
    for (let i = 0; i < RECORDS; i++) recorded.push((await bg.recordLocation(at(i))).uuid);
    if (c.autoSync) {
      // Below the threshold records wait; a motion change uploads everything (spec 3 rule 3).
      if (c.autoSyncThreshold > 0) await bg.changePace(true);
      await drained(bg);
    } else {
      expect(server.requests).toHaveLength(0); // rule 4: nothing moves without sync()
      while ((await bg.getCount()) > 0) await bg.sync();
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
  });
});
