import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Database } from '../db/database.js';
import { FAN, HOUR_MS, hourOf, hoursOf, MAX_TIER } from './buckets.js';
import {
  childRows,
  decodeInto,
  dirtyOfTier,
  hourStart,
  readFixes,
  settle,
  writeBucket,
  type DirtyBucket,
} from './pyramid-store.js';
import { levelSegments, type LevelSegments } from './segments.js';
import { TOP_LEVEL } from './tile-math.js';

/**
 * An hour is rebuilt once it ended this long ago: the live hour of a device uploading now stays
 * drawn from its records (one hour of them per tile), not rebuilt at every upload. A late record
 * marks its hour again, and the next pass rebuilds it.
 */
export const SETTLE_MS = 5 * 60_000;
/** Stale buckets taken per query. */
const BATCH = 500;
/** Positions of one hour read at most (3,600 at one a second; a device cannot honestly send more). */
const MAX_FIXES_PER_HOUR = 1_000_000;

async function rebuildHour(db: Database, dirty: DirtyBucket): Promise<void> {
  const from = hourStart(dirty.bucket);
  const fixes = await readFixes(db, dirty.deviceId, from, from + HOUR_MS, MAX_FIXES_PER_HOUR);
  const levels = levelSegments(fixes);
  await db.transaction(async (tx) => {
    await writeBucket(tx, dirty.deviceId, 0, dirty.bucket, levels);
    await settle(tx, dirty, 1);
  });
}

async function rebuildUpper(db: Database, dirty: DirtyBucket): Promise<void> {
  const rows = await childRows(db, dirty.deviceId, dirty.tier, dirty.bucket);
  const levels: LevelSegments[] = Array.from({ length: TOP_LEVEL + 1 }, () => new Map());
  for (const row of rows) {
    const tiles = levels[row.level]!;
    const tile = row.x * 2 ** row.level + row.y;
    let set = tiles.get(tile);
    if (!set) tiles.set(tile, (set = new Set()));
    decodeInto(row.segments, set);
  }
  await db.transaction(async (tx) => {
    await writeBucket(tx, dirty.deviceId, dirty.tier, dirty.bucket, levels);
    await settle(tx, dirty, dirty.tier < MAX_TIER ? dirty.tier + 1 : null);
  });
}

/**
 * One pass: rebuilds every stale bucket whose hours all ended SETTLE_MS before `now`, tier by
 * tier (an hour from its positions, a bucket above as the union of its FAN children). Answers how
 * many buckets it rebuilt. A record arriving meanwhile bumps its mark: that bucket stays stale.
 */
export async function buildTrackTiles(db: Database, now: number, stop: () => boolean = () => false): Promise<number> {
  const settledHour = hourOf(now - SETTLE_MS); // hours before this one have ended long enough ago
  let rebuilt = 0;
  for (let tier = 0; tier <= MAX_TIER; tier++) {
    for (;;) {
      const ready = (await dirtyOfTier(db, tier, BATCH)).filter((d) => hoursOf(d)[1] < settledHour);
      if (ready.length === 0 || stop()) break;
      for (const dirty of ready) {
        if (stop()) return rebuilt;
        await (tier === 0 ? rebuildHour(db, dirty) : rebuildUpper(db, dirty));
        rebuilt++;
        await yieldToIo();
      }
      if (ready.length < BATCH) break;
    }
  }
  return rebuilt;
}

/** Bucket spans of the tiers, for the docs' and tests' arithmetic. */
export const tierHours = (tier: number): number => FAN ** tier;
