import type { Queryable } from '../db/database.js';
import { HttpError } from '../errors.js';
import { cover, HOUR_MS, staleSet } from './buckets.js';
import { decodeInto, deviceDirty, deviceSpan, readFixes, readStoredTile } from './pyramid-store.js';
import { joined, levelSegments, type Fix } from './segments.js';
import type { Break } from '../tracks/split-at-breaks.js';
import { segmentOf, TILE_SIZE, TOP_LEVEL } from './tile-math.js';
import { BUILD_INTERVAL_MS } from './tile-worker.js';

/** Stale buckets a device may have for its tiles to be served (past it: building, 503). */
export const MAX_DIRTY = 5000;
/** Positions one tile reads from the records at most (stale hours and the range's partial hours). */
export const MAX_RAW_FIXES = 200_000;

export interface TileRequest {
  deviceId: string;
  z: number;
  x: number;
  y: number;
  from: number | null;
  to: number | null;
  /** The ledger's holes placed in time (`breaks=from:to,...`): no segment is drawn across one. */
  breaks?: readonly Break[];
}

/**
 * Fixes cut where a break lies between two consecutive ones (the rule /track splits by): the
 * pieces draw their own segments, none spanning the hole.
 */
export function cutAtBreaks(fixes: readonly Fix[], breaks: readonly Break[]): Fix[][] {
  if (breaks.length === 0) return [fixes as Fix[]];
  const pieces: Fix[][] = [];
  let piece: Fix[] = [];
  for (const fix of fixes) {
    const previous = piece[piece.length - 1];
    if (previous && breaks.some(([from, to]) => previous.t <= from && fix.t >= to)) {
      pieces.push(piece);
      piece = [];
    }
    piece.push(fix);
  }
  pieces.push(piece);
  return pieces;
}

/** Seconds a client waits before asking for a tile again: the builder's next pass. */
export const BUILDING_RETRY_S = Math.ceil(BUILD_INTERVAL_MS / 1000);

const building = (why: string) =>
  new HttpError(
    503,
    'TRACK_TILES_BUILDING',
    `The track's tiles are being built (${why}); draw it from /track meanwhile`,
    {},
    { 'retry-after': String(BUILDING_RETRY_S) },
  );

/**
 * One tile of a device's track over [from, to] (epoch ms, inclusive; null: open): the segments
 * whose later fix lies in the range, as tile pixels (x1, y1, x2, y2, ...; 0..256, one pixel of this
 * zoom). Whole hours come from the pyramid (a few dozen rows whatever the range's length); the
 * range's partial first and last hours, and hours whose tiles are stale (a late record, the live
 * hour, a deletion not yet rebuilt), from the positions themselves, so the answer always matches
 * the records. Above TOP_LEVEL the TOP_LEVEL tile is cut. `budget`: positions read at most.
 */
export async function readTrackTile(db: Queryable, request: TileRequest, budget = MAX_RAW_FIXES): Promise<number[]> {
  const breaks = request.breaks ?? [];
  const cut = await readTile(db, request, breaks, budget);
  if (cut !== OVER_BUDGET) return cut;
  // The breaks' hours cost the overrun: the tile is drawn without them (solid through a short hole,
  // under its dashed bridge) rather than not at all.
  const whole = breaks.length > 0 ? await readTile(db, request, [], budget) : OVER_BUDGET;
  if (whole !== OVER_BUDGET) return whole;
  throw building(`over ${budget} positions not yet in tiles`);
}

const OVER_BUDGET = Symbol('over budget');

async function readTile(
  db: Queryable,
  request: TileRequest,
  breaks: readonly Break[],
  budget: number,
): Promise<number[] | typeof OVER_BUDGET> {
  const span = await deviceSpan(db, request.deviceId);
  if (!span) return [];
  const from = Math.max(request.from ?? -Infinity, span[0], 0);
  const to = Math.min(request.to ?? Infinity, span[1]);
  if (from > to) return [];
  const level = Math.min(request.z, TOP_LEVEL);
  const shift = request.z - level;
  const tx = Math.floor(request.x / 2 ** shift);
  const ty = Math.floor(request.y / 2 ** shift);
  const dirty = await deviceDirty(db, request.deviceId, MAX_DIRTY + 1);
  if (dirty.length > MAX_DIRTY) throw building(`${MAX_DIRTY}+ hours to rebuild`);

  // Whole hours inside the range; the parts of hours at its ends are read from the records. A range
  // reaching past the device's first or last position takes that hour whole: nothing lies beyond.
  const lo = from === span[0] ? Math.floor(from / HOUR_MS) : Math.ceil(from / HOUR_MS);
  const hi = to === span[1] ? Math.floor(to / HOUR_MS) : Math.floor((to + 1) / HOUR_MS) - 1;
  const pieces: [number, number][] = [];
  const keys = new Set<number>();
  if (lo <= hi) {
    // A segment across a break belongs to the hour of the break's later fix: that hour is read from
    // the records, where the segment can be left out (its stored rows hold it, snapped).
    // A break longer than a trip's gap needs nothing: no segment is drawn across such a pause.
    const cut = breaks
      .filter(([before, later]) => joined({ t: before, lat: 0, lon: 0 }, { t: later, lat: 0, lon: 0 }))
      .map(([, later]) => ({ tier: 0, bucket: Math.floor(later / HOUR_MS) }));
    const { stored, raw } = cover(lo, hi, staleSet([...dirty, ...cut]));
    for (const bytes of await readStoredTile(db, request.deviceId, level, tx, ty, stored)) decodeInto(bytes, keys);
    for (const hour of raw) {
      const last = pieces[pieces.length - 1];
      if (last && last[1] === hour * HOUR_MS) last[1] += HOUR_MS;
      else pieces.push([hour * HOUR_MS, (hour + 1) * HOUR_MS]);
    }
    if (from < lo * HOUR_MS) pieces.push([from, lo * HOUR_MS]);
    if ((hi + 1) * HOUR_MS <= to) pieces.push([(hi + 1) * HOUR_MS, to + 1]);
  } else pieces.push([from, to + 1]);

  let left = budget;
  for (const [start, until] of pieces) {
    const fixes = await readFixes(db, request.deviceId, start, until, left + 1);
    // The fix before the piece (when there is one) only starts its first segment: not counted. (Counting
    // it always let a piece with none before it stop one row short, silently, at exactly the limit.)
    left -= fixes.length - (fixes.length > 0 && fixes[0]!.t < start ? 1 : 0);
    if (left < 0) return OVER_BUDGET;
    for (const run of cutAtBreaks(fixes, breaks))
      for (const k of levelSegments(run, { level, x: tx, y: ty })[level]!.get(tx * 2 ** level + ty) ?? []) keys.add(k);
  }
  return flatten(keys, shift, request.x - tx * 2 ** shift, request.y - ty * 2 ** shift);
}

/** Segment keys as tile pixels; above TOP_LEVEL scaled into sub-tile (sx, sy), those missing it left out. */
function flatten(keys: ReadonlySet<number>, shift: number, sx: number, sy: number): number[] {
  const out: number[] = [];
  const scale = 2 ** shift;
  for (const key of keys) {
    const [ax, ay, bx, by] = segmentOf(key);
    if (shift === 0) {
      out.push(ax, ay, bx, by);
      continue;
    }
    const s = [
      ax * scale - sx * TILE_SIZE,
      ay * scale - sy * TILE_SIZE,
      bx * scale - sx * TILE_SIZE,
      by * scale - sy * TILE_SIZE,
    ];
    const [x1, y1, x2, y2] = s as [number, number, number, number];
    if (Math.max(x1, x2) < 0 || Math.min(x1, x2) > TILE_SIZE || Math.max(y1, y2) < 0 || Math.min(y1, y2) > TILE_SIZE)
      continue;
    out.push(x1, y1, x2, y2);
  }
  return out;
}
