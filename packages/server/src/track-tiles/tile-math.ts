/**
 * Web-map tile arithmetic for the track pyramid: positions in world pixels (256-pixel tiles, Web
 * Mercator), tiles, and a segment clipped to one tile and snapped to its pixel grid. Pure.
 */

/** The finest level stored: one pixel is about 2.4 m at the equator (1.6 m at 48°), within GPS error. */
export const TOP_LEVEL = 16;
/** The deepest zoom a tile may be asked for; above TOP_LEVEL it is cut from a TOP_LEVEL tile. */
export const MAX_TILE_ZOOM = 22;
export const TILE_SIZE = 256;
/** Web Mercator's limit: beyond it a latitude has no square map. */
const MAX_LAT = 85.05112878;
const WORLD_TOP = TILE_SIZE * 2 ** TOP_LEVEL;

/** A position as world pixels at TOP_LEVEL (other levels scale it by a power of two). */
export function project(lat: number, lon: number): { x: number; y: number } {
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  const x = ((lon + 180) / 360) * WORLD_TOP;
  const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * WORLD_TOP;
  return { x: Math.max(0, Math.min(WORLD_TOP - 1e-6, x)), y: Math.max(0, Math.min(WORLD_TOP - 1e-6, y)) };
}

/** The scale from TOP_LEVEL pixels to a level's pixels. */
export const scaleOf = (level: number): number => 2 ** (level - TOP_LEVEL);

/** Pixel coordinates in a tile's frame run from -MARGIN to TILE_SIZE + MARGIN after clipping. */
const MARGIN = 1;
const SPAN = TILE_SIZE + 2 * MARGIN + 1; // 259 values: -1 .. 257
const OFFSET = MARGIN;

/**
 * A segment in one tile as one number: its two pixel endpoints (ordered, so A-B and B-A are one),
 * 9 bits each, 36 bits in all: exact in a double, so a Set of numbers dedupes segments.
 */
export function segmentKey(ax: number, ay: number, bx: number, by: number): number {
  const a = (ax + OFFSET) * 512 + (ay + OFFSET);
  const b = (bx + OFFSET) * 512 + (by + OFFSET);
  return a <= b ? a * 262_144 + b : b * 262_144 + a;
}

/** The four tile-frame pixel coordinates of a segment key. */
export function segmentOf(key: number): [number, number, number, number] {
  const a = Math.floor(key / 262_144);
  const b = key - a * 262_144;
  return [(a >> 9) - OFFSET, (a & 511) - OFFSET, (b >> 9) - OFFSET, (b & 511) - OFFSET];
}

/**
 * The part of segment P-Q (pixels of one level) inside tile (tx, ty) grown by MARGIN, snapped to
 * that tile's pixel grid, as a key; null when it misses the tile or shrinks to one pixel.
 * Liang-Barsky clipping.
 */
export function clipToTile(px: number, py: number, qx: number, qy: number, tx: number, ty: number): number | null {
  const ox = tx * TILE_SIZE;
  const oy = ty * TILE_SIZE;
  const [ax0, ay0, bx0, by0] = [Math.floor(px) - ox, Math.floor(py) - oy, Math.floor(qx) - ox, Math.floor(qy) - oy];
  // Most segments lie inside their tile: no clipping then.
  if (
    ax0 >= 0 &&
    ax0 < TILE_SIZE &&
    ay0 >= 0 &&
    ay0 < TILE_SIZE &&
    bx0 >= 0 &&
    bx0 < TILE_SIZE &&
    by0 >= 0 &&
    by0 < TILE_SIZE
  )
    return ax0 === bx0 && ay0 === by0 ? null : segmentKey(ax0, ay0, bx0, by0);
  const x0 = tx * TILE_SIZE - MARGIN;
  const y0 = ty * TILE_SIZE - MARGIN;
  const x1 = x0 + SPAN - 1;
  const y1 = y0 + SPAN - 1;
  const dx = qx - px;
  const dy = qy - py;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, px - x0],
    [dx, x1 - px],
    [-dy, py - y0],
    [dy, y1 - py],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
      if (t0 > t1) return null;
    }
  }
  const snap = (v: number, origin: number) => Math.max(-MARGIN, Math.min(TILE_SIZE + MARGIN, Math.floor(v) - origin));
  const ax = snap(px + t0 * dx, ox);
  const ay = snap(py + t0 * dy, oy);
  const bx = snap(px + t1 * dx, ox);
  const by = snap(py + t1 * dy, oy);
  if (ax === bx && ay === by) return null;
  return segmentKey(ax, ay, bx, by);
}

/** Tiles a segment may cross at most: a longer jump (a glitch, a flight) is not drawn at that level. */
export const MAX_TILES_PER_SEGMENT = 4096;

/**
 * The tiles segment P-Q (pixels of a level with `tiles` tiles a side) crosses: every tile of its
 * bounding box when that is small, else tiles sampled along it every half tile with their
 * neighbours. Empty when the segment would cross more than MAX_TILES_PER_SEGMENT.
 */
export function tilesCrossed(px: number, py: number, qx: number, qy: number, tiles: number): number[][] {
  const ax = Math.floor(Math.min(px, qx) / TILE_SIZE);
  const bx = Math.floor(Math.max(px, qx) / TILE_SIZE);
  const ay = Math.floor(Math.min(py, qy) / TILE_SIZE);
  const by = Math.floor(Math.max(py, qy) / TILE_SIZE);
  const out: number[][] = [];
  if ((bx - ax + 1) * (by - ay + 1) <= 16) {
    for (let x = ax; x <= bx; x++) for (let y = ay; y <= by; y++) out.push([x, y]);
    return out;
  }
  const steps = Math.ceil(Math.max(Math.abs(qx - px), Math.abs(qy - py)) / (TILE_SIZE / 2));
  if (steps > MAX_TILES_PER_SEGMENT) return out;
  const seen = new Set<number>();
  for (let i = 0; i <= steps; i++) {
    const cx = Math.floor((px + ((qx - px) * i) / steps) / TILE_SIZE);
    const cy = Math.floor((py + ((qy - py) * i) / steps) / TILE_SIZE);
    for (let x = cx - 1; x <= cx + 1; x++)
      for (let y = cy - 1; y <= cy + 1; y++) {
        if (x < 0 || y < 0 || x >= tiles || y >= tiles || seen.has(x * tiles + y)) continue;
        seen.add(x * tiles + y);
        out.push([x, y]);
      }
  }
  return out;
}
