import simplify from 'simplify-js';
import type { TrackPoint } from './split-trips.js';

/** The most points a track answer carries, whatever the zoom: what a browser draws without effort. */
export const MAX_TRACK_POINTS = 4000;
export const MIN_ZOOM = 0;
export const MAX_ZOOM = 22;
/** Times the tolerance may double to fit MAX_TRACK_POINTS (2^24 pixels is more than the world). */
const MAX_COARSENING = 24;
/** Douglas-Peucker sees at most this many times maxPoints (after the radial pass). */
const RADIAL_FACTOR = 4;

interface XY {
  x: number;
  y: number;
  p: TrackPoint;
}

/** Degrees per screen pixel at a web-map zoom level (256-pixel tiles, at the equator). */
export const degreesPerPixel = (zoom: number): number => 360 / (256 * 2 ** zoom);

/**
 * Drops points closer than `tolerance` to the last kept one, keeping both endpoints: O(n), and it
 * bounds what Douglas-Peucker sees, whose worst case (regular zig-zags) is quadratic.
 */
function radialThin(line: XY[], tolerance: number): XY[] {
  if (line.length <= 2) return line;
  const squared = tolerance * tolerance;
  const kept: XY[] = [line[0]!];
  let last = line[0]!;
  for (let i = 1; i < line.length - 1; i++) {
    const p = line[i]!;
    const dx = p.x - last.x;
    const dy = p.y - last.y;
    if (dx * dx + dy * dy > squared) {
      kept.push(p);
      last = p;
    }
  }
  kept.push(line[line.length - 1]!);
  return kept;
}

const count = (lines: XY[][]): number => lines.reduce((sum, line) => sum + line.length, 0);

/**
 * Simplifies trips for a zoom level: Douglas-Peucker (simplify-js) with a tolerance of about one
 * pixel, so the line looks the same at that zoom. Each trip keeps its first and last point. Before
 * it, a linear radial pass (coarsened until at most RADIAL_FACTOR x maxPoints remain) bounds its
 * cost. When the result is still over `maxPoints`, the tolerance doubles until it fits; a trip keeps
 * at least its two endpoints, so `maxPoints` holds while there are at most maxPoints / 2 trips (the
 * caller bounds the number of trips).
 */
export function simplifyTrips(
  trips: readonly TrackPoint[][],
  zoom: number,
  maxPoints: number = MAX_TRACK_POINTS,
): TrackPoint[][] {
  let lines: XY[][] = trips.map((trip) => trip.map((p) => ({ x: p.lon, y: p.lat, p })));
  let tolerance = degreesPerPixel(zoom);
  for (let round = 0; ; round++) {
    lines = lines.map((line) => radialThin(line, tolerance));
    if (count(lines) <= RADIAL_FACTOR * maxPoints || round >= MAX_COARSENING) break;
    tolerance *= 2;
  }
  for (let round = 0; ; round++) {
    lines = lines.map((line) => (line.length <= 2 ? line : (simplify(line, tolerance, true) as XY[])));
    if (count(lines) <= maxPoints || round >= MAX_COARSENING) break;
    tolerance *= 2;
  }
  return lines.map((line) => line.map((xy) => xy.p));
}
