import { badRequest } from '../errors.js';
import type { TrackPoint } from './split-trips.js';

/** Breaks a track request may carry at most (the gaps route answers at most 200). */
export const MAX_BREAKS = 200;

/** A hole in the record: the times of the fixes just before and just after it (ms). */
export type Break = readonly [from: number, to: number];

/**
 * `breaks=from:to,from:to` (epoch ms, the ledger's gaps placed in time): where the track must not
 * be one line. Bounded, integers, from <= to; anything else is a 400 naming it.
 */
export function breaksParam(raw: string | undefined): Break[] {
  if (raw === undefined || raw === '') return [];
  const parts = raw.split(',');
  if (parts.length > MAX_BREAKS) throw badRequest('INVALID_PARAMETER', `breaks holds at most ${MAX_BREAKS} ranges`);
  return parts.map((part) => {
    const match = /^(\d{1,16}):(\d{1,16})$/.exec(part);
    const range = match ? ([Number(match[1]), Number(match[2])] as const) : null;
    if (!range || range[0] > range[1])
      throw badRequest('INVALID_PARAMETER', `breaks must be from:to epoch milliseconds, got ${part.slice(0, 40)}`);
    return range;
  });
}

/**
 * Trips cut where a break lies between two consecutive fixes, before they are simplified: the
 * fixes at a hole's edges stay in the drawn line (a straight drive would otherwise lose them, and
 * the map could not say where the hole is). Pieces of one fix are kept: they still mark an edge.
 */
export function splitAtBreaks(trips: readonly TrackPoint[][], breaks: readonly Break[]): TrackPoint[][] {
  if (breaks.length === 0) return trips as TrackPoint[][];
  const out: TrackPoint[][] = [];
  for (const trip of trips) {
    let piece: TrackPoint[] = [trip[0]!];
    for (let i = 1; i < trip.length; i++) {
      const [p, q] = [trip[i - 1]!, trip[i]!];
      if (breaks.some(([from, to]) => p.t <= from && q.t >= to)) {
        out.push(piece);
        piece = [q];
      } else piece.push(q);
    }
    out.push(piece);
  }
  return out;
}
