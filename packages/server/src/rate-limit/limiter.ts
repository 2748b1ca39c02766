import { HttpError } from '../errors.js';
import { isFull, takeToken, type Bucket, type BucketRule } from './token-bucket.js';

/**
 * What is limited: uploads per device, requests per client address, logins per client address,
 * and password logins per account (whatever address they come from: a botnet guessing one user's
 * password is slowed as much as one machine).
 */
export type RateLimitScope = 'device' | 'address' | 'login' | 'account';

/** Buckets kept at most per scope; beyond it, full (idle) buckets are dropped first. */
const MAX_BUCKETS = 100_000;

/** Burst a bucket allows, in seconds of its rate: a device may catch up on a short outage at once. */
export const BURST_SECONDS = 20;

export interface RateLimiter {
  /** Counts a request of `key`; throws 429 RATE_LIMITED with Retry-After when its bucket is empty. */
  take(scope: RateLimitScope, key: string): void;
}

export function ruleFor(ratePerSecond: number): BucketRule | null {
  return ratePerSecond > 0 ? { ratePerSecond, burst: Math.max(1, ratePerSecond * BURST_SECONDS) } : null;
}

/**
 * Token buckets per scope and key, in this process's memory (each process of a PostgreSQL
 * deployment limits on its own). `now` is the server's clock, injectable in tests.
 */
export function createRateLimiter(
  rules: Record<RateLimitScope, BucketRule | null>,
  now: () => number,
  onLimited: (scope: RateLimitScope) => void,
): RateLimiter {
  const buckets: Record<RateLimitScope, Map<string, Bucket>> = {
    device: new Map(),
    address: new Map(),
    login: new Map(),
    account: new Map(),
  };
  const prune = (map: Map<string, Bucket>, rule: BucketRule, at: number) => {
    for (const [key, bucket] of map) if (isFull(bucket, rule, at)) map.delete(key);
    if (map.size >= MAX_BUCKETS) map.clear();
  };
  return {
    take(scope, key) {
      const rule = rules[scope];
      if (!rule) return;
      const map = buckets[scope];
      const at = now();
      const { bucket, retryAfterSeconds } = takeToken(map.get(key), rule, at);
      if (!map.has(key) && map.size >= MAX_BUCKETS) prune(map, rule, at);
      map.set(key, bucket);
      if (retryAfterSeconds === null) return;
      onLimited(scope);
      throw new HttpError(
        429,
        'RATE_LIMITED',
        `Too many requests (${scope === 'device' ? `device ${key}` : scope === 'account' ? 'logins to this account' : 'this address'}): over ${rule.ratePerSecond}/s; retry after ${retryAfterSeconds} s`,
        {},
        { 'retry-after': String(retryAfterSeconds) },
      );
    },
  };
}
