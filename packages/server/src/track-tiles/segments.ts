import { TRIP_RULES } from '../tracks/split-trips.js';
import { clipToTile, project, scaleOf, TILE_SIZE, tilesCrossed, TOP_LEVEL } from './tile-math.js';

/** A position of the track, in time order, as read from the locations table. */
export interface Fix {
  t: number;
  lat: number;
  lon: number;
}

/** One level's segments: tile (x * 2^level + y) to the set of its segment keys. */
export type LevelSegments = Map<number, Set<number>>;

/**
 * Whether two consecutive fixes are joined by a line: not across a pause longer than a trip's gap
 * (the same rule the /track answer splits trips by), so a break in recording stays a break.
 */
export const joined = (previous: Fix, next: Fix): boolean => next.t - previous.t <= TRIP_RULES.gapMs;

function add(out: LevelSegments, tile: number, key: number): void {
  let set = out.get(tile);
  if (!set) out.set(tile, (set = new Set()));
  set.add(key);
}

/**
 * The segments fixes draw at each level 0..TOP_LEVEL, each snapped to its tile's pixel grid and
 * deduplicated (a route driven a thousand times is stored once per bucket). A segment belongs to its
 * later fix: a bucket's fixes come with the fix before them, which only starts the first segment.
 * `only` limits the work to one tile (a tile read from raw records). Consecutive fixes in one pixel of a level draw nothing there: cost per fix at coarse
 * levels is one comparison.
 */
export function levelSegments(fixes: readonly Fix[], only?: { level: number; x: number; y: number }): LevelSegments[] {
  const levels: LevelSegments[] = [];
  const from = only ? only.level : 0;
  const to = only ? only.level : TOP_LEVEL;
  for (let level = 0; level <= TOP_LEVEL; level++) levels.push(new Map());
  const xs = new Float64Array(fixes.length);
  const ys = new Float64Array(fixes.length);
  fixes.forEach((f, i) => {
    const p = project(f.lat, f.lon);
    xs[i] = p.x;
    ys[i] = p.y;
  });
  for (let level = from; level <= to; level++) {
    const scale = scaleOf(level);
    const tiles = 2 ** level;
    const out = levels[level]!;
    let last = -1; // index of the fix the next segment starts from
    for (let i = 0; i < fixes.length; i++) {
      if (last >= 0 && !joined(fixes[last]!, fixes[i]!)) last = -1;
      if (last < 0) {
        last = i;
        continue;
      }
      const px = xs[last]! * scale;
      const py = ys[last]! * scale;
      const qx = xs[i]! * scale;
      const qy = ys[i]! * scale;
      if (Math.floor(px) === Math.floor(qx) && Math.floor(py) === Math.floor(qy)) continue;
      last = i;
      const tx = Math.floor(px / TILE_SIZE);
      const ty = Math.floor(py / TILE_SIZE);
      if (tx === Math.floor(qx / TILE_SIZE) && ty === Math.floor(qy / TILE_SIZE)) {
        // The common case, without allocation: both ends in one tile.
        if (only && (tx !== only.x || ty !== only.y)) continue;
        const key = clipToTile(px, py, qx, qy, tx, ty);
        if (key !== null) add(out, tx * tiles + ty, key);
        continue;
      }
      for (const [tx, ty] of tilesCrossed(px, py, qx, qy, tiles)) {
        if (only && (tx !== only.x || ty !== only.y)) continue;
        const key = clipToTile(px, py, qx, qy, tx!, ty!);
        if (key === null) continue;
        add(out, tx! * tiles + ty!, key);
      }
    }
  }
  return levels;
}
