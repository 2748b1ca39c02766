/** A point of a track: time (epoch ms) and position. */
export interface TrackPoint {
  t: number;
  lat: number;
  lon: number;
}

export interface TripRules {
  /** A pause longer than this between two records ends a trip (the device stopped recording). */
  gapMs: number;
  /** A device that stays within this distance ... */
  stopRadiusM: number;
  /** ... for at least this long is stopped: the trip ends where the stop began. */
  stopMs: number;
}

export const TRIP_RULES: TripRules = { gapMs: 10 * 60_000, stopRadiusM: 50, stopMs: 5 * 60_000 };

const EARTH_RADIUS_M = 6_371_000;
const RADIANS = Math.PI / 180;

/** Equirectangular distance: exact enough at stop radii, and cheap on a million points. */
export function nearMeters(a: TrackPoint, b: TrackPoint): number {
  const x = (b.lon - a.lon) * RADIANS * Math.cos(((a.lat + b.lat) / 2) * RADIANS);
  const y = (b.lat - a.lat) * RADIANS;
  return Math.sqrt(x * x + y * y) * EARTH_RADIUS_M;
}

/**
 * Splits a track (points in time order) into trips, so separate runs are never joined by a straight
 * line: at a gap in time longer than `gapMs`, and at a stationary period (within `stopRadiusM` for
 * `stopMs` or longer), whose points belong to no trip. Trips of one point are not lines and are left
 * out. One pass, no allocation per point beyond the trips themselves.
 */
export function splitTrips(points: readonly TrackPoint[], rules: TripRules = TRIP_RULES): TrackPoint[][] {
  const trips: TrackPoint[][] = [];
  let trip: TrackPoint[] = [];
  let anchor = 0; // index in trip where a possible stop began
  let stopped = false;
  const close = (keep: number) => {
    if (keep >= 2) trips.push(trip.length === keep ? trip : trip.slice(0, keep));
  };
  for (const point of points) {
    const previous = trip[trip.length - 1];
    if (previous && point.t - previous.t > rules.gapMs) {
      close(stopped ? anchor + 1 : trip.length);
      trip = [point];
      anchor = 0;
      stopped = false;
      continue;
    }
    if (trip.length === 0 || nearMeters(trip[anchor]!, point) <= rules.stopRadiusM) {
      trip.push(point);
      if (!stopped && point.t - trip[anchor]!.t >= rules.stopMs) stopped = true;
      continue;
    }
    // The point left the anchor's circle.
    if (stopped) {
      close(anchor + 1);
      trip = [previous!, point]; // the next trip starts where the device left its stop
      stopped = false;
    } else {
      trip.push(point);
    }
    anchor = trip.length - 1;
  }
  close(stopped ? anchor + 1 : trip.length);
  return trips;
}
