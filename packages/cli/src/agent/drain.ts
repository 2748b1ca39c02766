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

export type DrainEnd = { kind: 'done' } | { kind: 'gave-up'; left: number };

/**
 * --exit-when-done: once the source has ended, upload until the queue is empty. An attempt that
 * delivers nothing (refused, server down) is followed by a growing wait that honours Retry-After;
 * after `giveUpAfterMs` without a delivery it gives up, so a refusing server ends the agent with an
 * error instead of a request loop. Never resolves once `stopping()` (the signal wins the race).
 */
export async function drainQueue(
  bg: BackgroundGeolocation,
  clock: Clock,
  giveUpAfterMs: number,
  stopping: () => boolean,
): Promise<DrainEnd> {
  let lastProgress = clock.now();
  let failures = 0;
  while (!stopping()) {
    const left = await bg.getCount();
    if (left === 0) return { kind: 'done' };
    if (clock.now() - lastProgress >= giveUpAfterMs) return { kind: 'gave-up', left };
    // A sync() that fails outright (NO_URL: another process removed http.url) counts as no delivery;
    // onHttp has already said why each request failed. A request still unanswered at the deadline
    // (a server that accepts and never answers, up to http.timeout) does not hold the give-up: the
    // agent gives up on time, and closing releases that request's records.
    const delivered = await beforeDeadline(
      bg.sync().then(
        (records) => records.length,
        () => 0,
      ),
      clock,
      lastProgress + giveUpAfterMs - clock.now(),
    );
    if (delivered === null) return { kind: 'gave-up', left: await bg.getCount() };
    if (delivered > 0) {
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
    await new Promise<void>((resolve) => clock.setTimeout(resolve, wait));
  }
  return new Promise(() => {});
}

/** The attempt's result, or null when `ms` pass first. */
function beforeDeadline<T>(attempt: Promise<T>, clock: Clock, ms: number): Promise<T | null> {
  let timer: unknown;
  const deadline = new Promise<null>((resolve) => (timer = clock.setTimeout(() => resolve(null), Math.max(0, ms))));
  return Promise.race([attempt, deadline]).finally(() => clock.clearTimeout(timer));
}
