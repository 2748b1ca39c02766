import { nearMeters, TRIP_RULES, type TrackPoint, type TripRules } from './split-trips.js';

/**
 * splitTrips (split-trips.ts) as a stream: one point at a time, with a small state that can be kept
 * in the database between uploads, deciding trip starts and ends as soon as they are certain. Fed a
 * whole track and then closed, it reports exactly the trips splitTrips returns (a test holds the two
 * together), so fleet events and the dashboard agree on what a trip is.
 */
export interface TripState {
  /** The current trip's first point (trip[0] in splitTrips), null before any point or after close. */
  first: TrackPoint | null;
  /** Points in the current trip. */
  count: number;
  /** Where a possible stop began (trip[anchor]) and its index in the trip. */
  anchor: TrackPoint | null;
  anchorIndex: number;
  last: TrackPoint | null;
  stopped: boolean;
  /** Whether trip.start was reported for the current trip. */
  started: boolean;
}

export interface TripEdge {
  type: 'trip.start' | 'trip.end';
  /** The trip's first point. */
  start: TrackPoint;
  /** The point the edge happened at: the first point for a start, the last kept point for an end. */
  at: TrackPoint;
}

export const emptyTrip = (): TripState => ({
  first: null,
  count: 0,
  anchor: null,
  anchorIndex: 0,
  last: null,
  stopped: false,
  started: false,
});

function startOver(state: TripState, point: TrackPoint): void {
  Object.assign(state, { first: point, count: 1, anchor: point, anchorIndex: 0, last: point, stopped: false });
  state.started = false;
}

/**
 * Ends the current trip (a gap in time, or the device went silent): the edges it still owes. A trip
 * is kept when it has two points or more: up to the stop's anchor when stopped (its end was reported
 * when the stop began), else all of them.
 */
export function closeTrip(state: TripState): TripEdge[] {
  const edges: TripEdge[] = [];
  if (state.first && !state.stopped && state.count >= 2) {
    if (!state.started) edges.push({ type: 'trip.start', start: state.first, at: state.first });
    edges.push({ type: 'trip.end', start: state.first, at: state.last! });
  }
  Object.assign(state, emptyTrip());
  return edges;
}

/** Feeds one point (in time order); mutates the state and returns the edges it makes certain. */
export function stepTrip(state: TripState, point: TrackPoint, rules: TripRules = TRIP_RULES): TripEdge[] {
  const previous = state.last;
  if (!previous || !state.first || !state.anchor) {
    startOver(state, point);
    return [];
  }
  if (point.t - previous.t > rules.gapMs) {
    const edges = closeTrip(state);
    startOver(state, point);
    return edges;
  }
  const edges: TripEdge[] = [];
  if (nearMeters(state.anchor, point) <= rules.stopRadiusM) {
    state.count += 1;
    state.last = point;
    if (!state.stopped && point.t - state.anchor.t >= rules.stopMs) {
      state.stopped = true;
      // The trip ends where the stop began: certain now, whatever comes next.
      if (state.anchorIndex >= 1) edges.push({ type: 'trip.end', start: state.first, at: state.anchor });
    }
    return edges;
  }
  // The point left the anchor's circle.
  if (state.stopped) {
    // The next trip starts where the device left its stop: [previous, point], certain at once.
    Object.assign(state, { first: previous, count: 2, anchor: point, anchorIndex: 1, last: point, stopped: false });
    state.started = true;
    edges.push({ type: 'trip.start', start: previous, at: previous });
    return edges;
  }
  state.count += 1;
  state.anchorIndex = state.count - 1;
  state.anchor = point;
  state.last = point;
  if (!state.started) {
    state.started = true;
    edges.push({ type: 'trip.start', start: state.first, at: state.first });
  }
  return edges;
}
