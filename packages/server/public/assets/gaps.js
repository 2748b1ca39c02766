// Where the delivery ledger says records never arrived, the track is not a solid line: the line
// breaks there and a dashed one spans the hole, so an operator does not read a straight drive
// through minutes nobody saw. Pure: trips are lists of [lat, lon, t], gaps { from, to, missing,
// first, last } from GET /api/dashboard/devices/:id/gaps (times in ms).

/** A gap lies between two consecutive points when the first is at or before it and the second at or after it. */
const spans = (p, q, gap) => p[2] <= gap.from && q[2] >= gap.to;

/**
 * A trip cut at the gaps it runs through: `pieces` to draw solid, `bridges` ([p, q, gap]) to
 * draw dashed. Gaps with an unknown end (from or to null) are not placed.
 */
export function splitAtGaps(trip, gaps) {
  const placed = gaps.filter((gap) => gap.from !== null && gap.to !== null);
  const pieces = [];
  const bridges = [];
  let current = [trip[0]];
  for (let i = 1; i < trip.length; i++) {
    const gap = placed.find((g) => spans(trip[i - 1], trip[i], g));
    if (gap) {
      if (current.length > 1) pieces.push(current);
      bridges.push([trip[i - 1], trip[i], gap]);
      current = [trip[i]];
    } else current.push(trip[i]);
  }
  if (current.length > 1) pieces.push(current);
  return { pieces, bridges };
}

export const gapText = (gap) =>
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
export function placedBridges(gaps, range) {
  return gaps
    .filter((gap) => gap.fromPoint && gap.toPoint && gap.from !== null && gap.to !== null)
    .filter((gap) => (range.from === null || gap.to >= range.from) && (range.to === null || gap.from <= range.to))
    .map((gap) => [[...gap.fromPoint, gap.from], [...gap.toPoint, gap.to], gap]);
}
