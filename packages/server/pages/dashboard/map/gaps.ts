// Where the delivery ledger says records never arrived, the track is not a solid line: the line
// breaks there and a dashed one spans the hole, so an operator does not read a straight drive
// through minutes nobody saw. Pure: trips are lists of [lat, lon, t], gaps { from, to, missing,
// first, last } from GET /api/dashboard/devices/:id/gaps (times in ms).

import type { Reply } from '../api-types.js';

/** One hole of the ledger, as GET /api/dashboard/devices/{id}/gaps answers it. */
export type Gap = Reply<'/api/dashboard/devices/{id}/gaps'>['gaps'][number];

/** [lat, lon, t] */
export type TrackPoint = [number, number, number];
export type Bridge = [TrackPoint, TrackPoint, Gap];

/** A gap lies between two consecutive points when the first is at or before it and the second at or after it. */
const spans = (p: TrackPoint, q: TrackPoint, gap: Gap): boolean =>
  gap.from !== null && gap.to !== null && p[2] <= gap.from && q[2] >= gap.to;

/**
 * A trip cut at the gaps it runs through: `pieces` to draw solid, `bridges` ([p, q, gap]) to
 * draw dashed. Gaps with an unknown end (from or to null) are not placed.
 */
export function splitAtGaps(trip: TrackPoint[], gaps: Gap[]): { pieces: TrackPoint[][]; bridges: Bridge[] } {
  const placed = gaps.filter((gap) => gap.from !== null && gap.to !== null);
  const pieces: TrackPoint[][] = [];
  const bridges: Bridge[] = [];
  if (trip.length === 0) return { pieces, bridges };
  let current: TrackPoint[] = [trip[0] as TrackPoint];
  for (let i = 1; i < trip.length; i++) {
    const p = trip[i - 1] as TrackPoint;
    const q = trip[i] as TrackPoint;
    const gap = placed.find((g) => spans(p, q, g));
    if (gap) {
      if (current.length > 1) pieces.push(current);
      bridges.push([p, q, gap]);
      current = [q];
    } else current.push(q);
  }
  if (current.length > 1) pieces.push(current);
  return { pieces, bridges };
}

export const gapText = (gap: Gap): string =>
  gap.missing +
  (gap.missing === 1 ? ' record' : ' records') +
  ' missing (#' +
  gap.first +
  (gap.first === gap.last ? '' : '–#' + gap.last) +
  ')';

/**
 * The ledger's holes as bridges of their own ([p, q, gap], p and q as [lat, lon, t]), for a track
 * drawn from tiles (no points to cut): those whose edges are stored and placed (fromPoint, toPoint)
 * and that reach into the range.
 */
export function placedBridges(gaps: Gap[], range: { from: number | null; to: number | null }): Bridge[] {
  const bridges: Bridge[] = [];
  for (const gap of gaps) {
    const { fromPoint, toPoint, from, to } = gap;
    if (!fromPoint || !toPoint || from === null || to === null) continue;
    if ((range.from === null || to >= range.from) && (range.to === null || from <= range.to))
      bridges.push([[...fromPoint, from], [...toPoint, to], gap]);
  }
  return bridges;
}
