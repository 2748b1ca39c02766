/** A token bucket: `tokens` left as of `at` (epoch ms). */
export interface Bucket {
  tokens: number;
  at: number;
}

export interface BucketRule {
  /** Tokens added per second (the sustained request rate). */
  ratePerSecond: number;
  /** Most tokens a bucket holds (the burst a client may send at once). */
  burst: number;
}

/**
 * Takes one token at `now`: the bucket after it, and when none was left, the whole seconds until
 * one is (for Retry-After). Pure: the caller keeps the buckets and owns the clock.
 */
export function takeToken(
  bucket: Bucket | undefined,
  rule: BucketRule,
  now: number,
): { bucket: Bucket; retryAfterSeconds: number | null } {
  const elapsed = bucket ? Math.max(0, now - bucket.at) / 1000 : Infinity;
  const tokens = Math.min(rule.burst, (bucket?.tokens ?? rule.burst) + elapsed * rule.ratePerSecond);
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, at: now }, retryAfterSeconds: null };
  return {
    bucket: { tokens, at: now },
    retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rule.ratePerSecond)),
  };
}

/** Whether a bucket left alone since `at` is full again by `now` (and so need not be kept). */
export const isFull = (bucket: Bucket, rule: BucketRule, now: number): boolean =>
  bucket.tokens + ((now - bucket.at) / 1000) * rule.ratePerSecond >= rule.burst;
