// --exit-when-done's drain (agent/drain.ts) on an injected clock: records another upload delivered
// while its own sync() delivered none (the SDK's upload already in flight when the file ended) are
// progress, so the agent stops at once instead of after a backoff wait (a second per run before).
import type { BackgroundGeolocation } from '@waypost/node';
import { drainMicrotasks, ManualClock } from '@waypost/sdk/testing';
import { describe, expect, it } from 'vitest';
import { drainQueue, type DrainEnd } from '../src/agent/drain.js';

/** The SDK as the drain sees it: a queue of `queued` records, whose sync() delivers `delivers`. */
function sdk(queue: { queued: number }, delivers: () => number) {
  return {
    getCount: async () => queue.queued,
    sync: async () => Array.from({ length: delivers() }),
    getState: async () => ({ retryAfter: null }),
  } as unknown as BackgroundGeolocation;
}

describe('the drain of --exit-when-done', () => {
  it('ends as soon as the queue is empty when another upload delivered it, without a backoff wait', async () => {
    const clock = new ManualClock();
    const queue = { queued: 5 };
    // Its sync() finds an upload in flight and delivers nothing; that upload delivers all five.
    const bg = sdk(queue, () => ((queue.queued = 0), 0));
    let end: DrainEnd | null = null;
    void drainQueue(bg, clock, 60_000, new Promise(() => {})).then((result) => (end = result));
    await drainMicrotasks();
    expect(end).toEqual({ kind: 'done' });
    expect(clock.pending).toBe(0);
  });

  it('waits its backoff when nothing was delivered by anyone, and gives up at the deadline', async () => {
    const clock = new ManualClock();
    const bg = sdk({ queued: 5 }, () => 0);
    let end: DrainEnd | null = null;
    void drainQueue(bg, clock, 3_000, new Promise(() => {})).then((result) => (end = result));
    await drainMicrotasks();
    expect(end).toBeNull();
    await clock.advance(3_000);
    await drainMicrotasks();
    expect(end).toEqual({ kind: 'gave-up', left: 5, unanswered: false });
  });
});
