import type { BackgroundGeolocation, Clock } from '@waypost/node';

/** Waits between drain attempts that delivered nothing: 1 s doubling to 1 min. */
export const DRAIN_BACKOFF_FIRST_MS = 1_000;
export const DRAIN_BACKOFF_MAX_MS = 60_000;

/**
 * Pure: how long to wait after `failures` attempts in a row delivered nothing, never before the
 * server's Retry-After (`retryAfterAt`, epoch ms), never past the give-up deadline.
 */
export function drainWaitMs(failures: number, now: number, retryAfterAt: number | null, deadline: number): number {
  const backoff = Math.min(DRAIN_BACKOFF_FIRST_MS * 2 ** Math.max(0, failures - 1), DRAIN_BACKOFF_MAX_MS);
  const wait = retryAfterAt !== null && retryAfterAt > now ? Math.max(backoff, retryAfterAt - now) : backoff;
  return Math.max(0, Math.min(wait, deadline - now));
}

/**
 * How the drain ended. `unanswered`: the give-up deadline passed with a request still waiting for
 * its answer (a server that accepts and never answers), which no onHttp event has reported yet.
 */
export type DrainEnd = { kind: 'done' } | { kind: 'gave-up'; left: number; unanswered: boolean };

/**
 * --exit-when-done: once the source has ended, upload until the queue is empty. An attempt that
 * delivers nothing (refused, server down) is followed by a growing wait that honours Retry-After;
 * after `giveUpAfterMs` without a delivery it gives up, so a refusing server ends the agent with an
 * error instead of a request loop. Once `stopped` settles (a signal) it never resolves, and every
 * wait it had on the clock is cancelled: a timer left behind (a Retry-After of an hour) would keep
 * the closed agent's process alive until it fired.
 */
export async function drainQueue(
  bg: BackgroundGeolocation,
  clock: Clock,
  giveUpAfterMs: number,
  stopped: Promise<unknown>,
): Promise<DrainEnd> {
  let stopping = false;
  void stopped.then(() => (stopping = true));
  let lastProgress = clock.now();
  let failures = 0;
  while (!stopping) {
    const left = await bg.getCount();
    if (left === 0) return { kind: 'done' };
    if (clock.now() - lastProgress >= giveUpAfterMs) return { kind: 'gave-up', left, unanswered: false };
    // A sync() that fails outright (NO_URL: another process removed http.url) counts as no delivery;
    // onHttp has already said why each request failed. A request still unanswered at the deadline
    // (a server that accepts and never answers, up to http.timeout) does not hold the give-up: the
    // agent gives up on time, and closing releases that request's records.
    const attempt = bg.sync().then(
      (records) => records.length,
      () => 0,
    );
    const delivered = await waitOn(clock, lastProgress + giveUpAfterMs - clock.now(), stopped, attempt);
    if (stopping) break;
    if (delivered === null) return { kind: 'gave-up', left: await bg.getCount(), unanswered: true };
    // Records delivered by another upload meanwhile (the SDK's own, already in flight when this
    // sync() was asked for, which then delivers none) are progress too: no backoff wait for them.
    if (delivered > 0 || (await bg.getCount()) < left) {
      lastProgress = clock.now();
      failures = 0;
      continue;
    }
    failures++;
    const retryAfter = (await bg.getState()).retryAfter;
    const wait = drainWaitMs(
      failures,
      clock.now(),
      retryAfter ? Date.parse(retryAfter) : null,
      lastProgress + giveUpAfterMs,
    );
    await waitOn(clock, wait, stopped);
  }
  return new Promise(() => {});
}

/**
 * Waits `ms` on the clock, or less: until `work` settles (its result) or `stopped` does (null).
 * Null as well when the time ran out. The timer is cleared whichever comes first.
 */
function waitOn<T>(clock: Clock, ms: number, stopped: Promise<unknown>, work?: Promise<T>): Promise<T | null> {
  let timer: unknown;
  const late = new Promise<null>((resolve) => (timer = clock.setTimeout(() => resolve(null), Math.max(0, ms))));
  const racers: Promise<T | null>[] = [late, stopped.then(() => null)];
  if (work) racers.push(work);
  return Promise.race(racers).finally(() => clock.clearTimeout(timer));
}
