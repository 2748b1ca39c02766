/** How a sink's failed deliveries are retried (issue 21). */
export interface RetryPolicy {
  /** The first retry's delay; each next one doubles it ... */
  baseDelayMs: number;
  /** ... up to this. */
  maxDelayMs: number;
  /** An event still failing this long after it was decided is dead-lettered (kept, replayable). */
  retryForMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 10 * 60_000,
  retryForMs: 3 * 24 * 3600_000,
};

/**
 * After a failed attempt (`attempts` counts it): when to try again, or whether to give up. Only
 * age gives up, never the number of events waiting: nothing pending is dropped for being pending.
 */
export function afterFailure(
  policy: RetryPolicy,
  attempts: number,
  createdAt: number,
  now: number,
): { dead: boolean; nextAt: number } {
  const exponent = Math.min(Math.max(attempts - 1, 0), 40);
  const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return { dead: now - createdAt >= policy.retryForMs, nextAt: now + delay };
}
