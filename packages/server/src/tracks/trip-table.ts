import { splitTrips, TRIP_RULES, type TrackPoint, type TripRules } from './split-trips.js';

export interface TripRow {
  start: number;
  end: number;
  durationMs: number;
  /** Along the recorded positions (great-circle between consecutive ones), in metres. */
  distanceM: number;
  averageSpeedMps: number | null;
  /** The fastest SPEED_WINDOW_MS of the trip: one noisy fix does not make a top speed. */
  maxSpeedMps: number | null;
  points: number;
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
}

export interface StopRow {
  start: number;
  end: number;
  durationMs: number;
  lat: number;
  lon: number;
}

const EARTH_RADIUS_M = 6_371_000;
const RADIANS = Math.PI / 180;
/** Speeds are measured over at least this long. */
export const SPEED_WINDOW_MS = 5_000;

export function haversineMeters(a: TrackPoint, b: TrackPoint): number {
  const dLat = (b.lat - a.lat) * RADIANS;
  const dLon = (b.lon - a.lon) * RADIANS;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RADIANS) * Math.cos(b.lat * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

function tripRow(trip: TrackPoint[]): TripRow {
  // Distance so far at each point, so any window's distance is one subtraction.
  const along = [0];
  for (let i = 1; i < trip.length; i++) along.push(along[i - 1]! + haversineMeters(trip[i - 1]!, trip[i]!));
  let maxSpeed: number | null = null;
  let j = 0;
  for (let i = 0; i < trip.length; i++) {
    while (j < trip.length && trip[j]!.t - trip[i]!.t < SPEED_WINDOW_MS) j++;
    if (j === trip.length) break;
    const speed = (along[j]! - along[i]!) / ((trip[j]!.t - trip[i]!.t) / 1000);
    if (maxSpeed === null || speed > maxSpeed) maxSpeed = speed;
  }
  const first = trip[0]!;
  const last = trip[trip.length - 1]!;
  const durationMs = last.t - first.t;
  const distanceM = along[along.length - 1]!;
  return {
    start: first.t,
    end: last.t,
    durationMs,
    distanceM,
    averageSpeedMps: durationMs > 0 ? distanceM / (durationMs / 1000) : null,
    maxSpeedMps: maxSpeed,
    points: trip.length,
    from: { lat: first.lat, lon: first.lon },
    to: { lat: last.lat, lon: last.lon },
  };
}

/**
 * A device's trips and stops over a range (points in time order), by the trip rule the map draws
 * with: each trip's start, end, duration, distance, average and top speed, and between two trips
 * the stop (where the first ended) when it lasted the stop time or longer.
 */
export function tripTable(
  points: readonly TrackPoint[],
  rules: TripRules = TRIP_RULES,
): { trips: TripRow[]; stops: StopRow[] } {
  const trips = splitTrips(points, rules).map(tripRow);
  const stops: StopRow[] = [];
  for (let i = 1; i < trips.length; i++) {
    const before = trips[i - 1]!;
    const after = trips[i]!;
    const durationMs = after.start - before.end;
    if (durationMs >= rules.stopMs) {
      stops.push({ start: before.end, end: after.start, durationMs, lat: before.to.lat, lon: before.to.lon });
    }
  }
  return { trips, stops };
}
