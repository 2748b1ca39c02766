/**
 * When a refresh may be tried again after failures: doubling from REFRESH_BACKOFF_BASE_MS up to
 * REFRESH_BACKOFF_MAX_MS, with jitter so a fleet does not refresh in lockstep. Pure: time and
 * randomness are arguments.
 */
export const REFRESH_BACKOFF_BASE_MS = 10_000;
export const REFRESH_BACKOFF_MAX_MS = 15 * 60_000;

export function refreshRetryAt(consecutiveFailures: number, now: number, random: number): number {
  if (consecutiveFailures <= 0) return now;
  const exponential = REFRESH_BACKOFF_BASE_MS * 2 ** Math.min(consecutiveFailures - 1, 20);
  const delay = Math.min(exponential, REFRESH_BACKOFF_MAX_MS);
  // Jitter in [0.5, 1.0] of the delay: never sooner than half, never later than the cap.
  return now + Math.round(delay * (0.5 + random / 2));
}
