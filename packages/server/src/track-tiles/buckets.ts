/**
 * The pyramid's time buckets: tier 0 is one hour; each tier above holds FAN buckets of the one below
 * (4 h, 16 h, 64 h, ... 65,536 h, about 7.5 years, at tier MAX_TIER). A time range is drawn from
 * the fewest whole buckets that tile it (at most 2 x (FAN - 1) per tier), so a tile of a long
 * history reads a few dozen rows however long it is. Pure.
 */
export const HOUR_MS = 3_600_000;
export const FAN = 4;
export const MAX_TIER = 8;

export const hourOf = (t: number): number => Math.floor(t / HOUR_MS);

/** A bucket: tier and index (its hours are [bucket * FAN^tier, (bucket + 1) * FAN^tier)). */
export interface Bucket {
  tier: number;
  bucket: number;
}

export const hoursOf = (b: Bucket): [number, number] => {
  const span = FAN ** b.tier;
  return [b.bucket * span, (b.bucket + 1) * span - 1];
};

/** Buckets whose stored rows are stale: a dirty bucket and every bucket above it. */
export function staleSet(dirty: readonly Bucket[]): Set<string> {
  const stale = new Set<string>();
  for (const d of dirty) {
    let bucket = d.bucket;
    for (let tier = d.tier; tier <= MAX_TIER; tier++) {
      stale.add(`${tier}:${bucket}`);
      bucket = Math.floor(bucket / FAN);
    }
  }
  return stale;
}

/**
 * Hours [lo, hi] as the fewest aligned buckets, the stale ones split down to their hours: the
 * stored buckets to read, and the hours to draw from the raw records instead.
 */
export function cover(lo: number, hi: number, stale: ReadonlySet<string>): { stored: Bucket[]; raw: number[] } {
  const stored: Bucket[] = [];
  const raw: number[] = [];
  const take = (tier: number, bucket: number): void => {
    if (!stale.has(`${tier}:${bucket}`)) stored.push({ tier, bucket });
    else if (tier === 0) raw.push(bucket);
    else for (let child = bucket * FAN; child < (bucket + 1) * FAN; child++) take(tier - 1, child);
  };
  let tier = 0;
  while (lo <= hi) {
    if (tier === MAX_TIER) {
      for (let b = lo; b <= hi; b++) take(tier, b);
      break;
    }
    while (lo % FAN !== 0 && lo <= hi) take(tier, lo++);
    while ((hi + 1) % FAN !== 0 && lo <= hi) take(tier, hi--);
    if (lo > hi) break;
    lo = lo / FAN;
    hi = (hi + 1) / FAN - 1;
    tier++;
  }
  return { stored, raw: raw.sort((a, b) => a - b) };
}
