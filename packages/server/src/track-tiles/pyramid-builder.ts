import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Database } from '../db/database.js';
import { HOUR_MS, hourOf, hoursOf, MAX_TIER } from './buckets.js';
import {
  bucketRows,
  childRows,
  decodeInto,
  dirtyOfTier,
  hourStart,
  readFixes,
  replaceBuckets,
  type DirtyBucket,
} from './pyramid-store.js';
import { levelSegments, type LevelSegments } from './segments.js';
import { TOP_LEVEL } from './tile-math.js';
import type { SqlValue } from '../db/database.js';

/**
 * An hour is rebuilt once it ended this long ago: the live hour of a device uploading now stays
 * drawn from its records (one hour of them per tile), not rebuilt at every upload. A late record
 * marks its hour again, and the next pass rebuilds it.
 */
export const SETTLE_MS = 5 * 60_000;
/** Stale buckets taken per query. */
const BATCH = 2000;
/** Consecutive stale hours of a device rebuilt from one read, in one transaction. */
const HOURS_PER_GROUP = 48;
/** Positions read per group at most (48 hours at one a second is 172,800). */
const MAX_FIXES_PER_GROUP = 2_000_000;

/** Stale buckets in runs: one device, consecutive buckets, at most `max` each. */
function runs(dirty: readonly DirtyBucket[], max: number): DirtyBucket[][] {
  const sorted = [...dirty].sort((a, b) =>
    a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : a.bucket - b.bucket,
  );
  const out: DirtyBucket[][] = [];
  for (const d of sorted) {
    const run = out[out.length - 1];
    const last = run?.[run.length - 1];
    if (run && last && last.deviceId === d.deviceId && d.bucket - last.bucket <= 1 && run.length < max) run.push(d);
    else out.push([d]);
  }
  return out;
}

/**
 * The time before which a device's positions are past retention (retention/cutoff.ts), or null
 * when they are kept for ever.
 */
export type ExpiredBefore = (deviceId: string) => Promise<number | null>;

/**
 * Rebuilds consecutive stale hours of one device from their positions, read once. Hours wholly
 * past the device's retention are emptied without reading: retention removes a backlog's
 * positions over many passes, oldest arrivals first across the fleet, marking each device's hours
 * at each; rebuilding them from what is left read, again and again, what was about to go.
 */
async function rebuildHours(
  db: Database,
  dirtyRun: readonly DirtyBucket[],
  expiredBefore?: ExpiredBefore,
): Promise<void> {
  const cutoff = expiredBefore ? await expiredBefore(dirtyRun[0]!.deviceId) : null;
  const run = cutoff === null ? dirtyRun : dirtyRun.filter((d) => hourStart(d.bucket + 1) > cutoff);
  const rows: SqlValue[][] = [];
  if (run.length > 0) rows.push(...(await hourRows(db, run)));
  await db.transaction((tx) => replaceBuckets(tx, dirtyRun, rows, 1));
}

/** The tile rows of consecutive hours of one device, from their positions read once. */
async function hourRows(db: Database, run: readonly DirtyBucket[]): Promise<SqlValue[][]> {
  const first = run[0]!;
  const from = hourStart(first.bucket);
  const until = hourStart(run[run.length - 1]!.bucket + 1);
  const fixes = await readFixes(db, first.deviceId, from, until, MAX_FIXES_PER_GROUP);
  const rows: SqlValue[][] = [];
  let start = 0; // index of the first fix at or after the hour (the one before leads)
  while (start < fixes.length && fixes[start]!.t < from) start++;
  for (const dirty of run) {
    const end0 = hourStart(dirty.bucket + 1);
    let end = start;
    while (end < fixes.length && fixes[end]!.t < end0) end++;
    const hour = fixes.slice(Math.max(0, start - 1), end);
    rows.push(...bucketRows(dirty.deviceId, 0, dirty.bucket, levelSegments(hour)));
    start = end;
  }
  return rows;
}

/** Rebuilds a bucket above the hours as the union of its children's tiles. */
async function rebuildUpper(db: Database, dirty: DirtyBucket): Promise<void> {
  const levels: LevelSegments[] = Array.from({ length: TOP_LEVEL + 1 }, () => new Map());
  for (const row of await childRows(db, dirty.deviceId, dirty.tier, dirty.bucket)) {
    const tiles = levels[row.level]!;
    const tile = row.x * 2 ** row.level + row.y;
    let set = tiles.get(tile);
    if (!set) tiles.set(tile, (set = new Set()));
    decodeInto(row.segments, set);
  }
  const rows = bucketRows(dirty.deviceId, dirty.tier, dirty.bucket, levels);
  await db.transaction((tx) => replaceBuckets(tx, [dirty], rows, dirty.tier < MAX_TIER ? dirty.tier + 1 : null));
}

/**
 * One pass: rebuilds every stale bucket whose hours all ended SETTLE_MS before `now`, tier by
 * tier (hours from their positions, a bucket above as the union of its children; an hour past
 * the device's retention, given `expiredBefore`, empty). Answers how many buckets it rebuilt. A
 * record arriving meanwhile bumps its mark: that bucket stays stale.
 */
export async function buildTrackTiles(
  db: Database,
  now: number,
  stop: () => boolean = () => false,
  expiredBefore?: ExpiredBefore,
): Promise<number> {
  const settledHour = hourOf(now - SETTLE_MS); // hours before this one have ended long enough ago
  let rebuilt = 0;
  for (let tier = 0; tier <= MAX_TIER; tier++) {
    for (;;) {
      const ready = (await dirtyOfTier(db, tier, BATCH)).filter((d) => hoursOf(d)[1] < settledHour);
      if (ready.length === 0 || stop()) break;
      for (const run of tier === 0 ? runs(ready, HOURS_PER_GROUP) : ready.map((d) => [d])) {
        if (stop()) return rebuilt;
        await (tier === 0 ? rebuildHours(db, run, expiredBefore) : rebuildUpper(db, run[0]!));
        rebuilt += run.length;
        await yieldToIo();
      }
      if (ready.length < BATCH) break;
    }
  }
  return rebuilt;
}

export { HOUR_MS };
