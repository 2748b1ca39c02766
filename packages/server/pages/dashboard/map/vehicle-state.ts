// What a vehicle is doing now. The state shown in the device list, the device panel and on the
// map's markers is one: the one the server names (GET /api/health, docs/device-health.md), read by
// shownState() below. Only a device the server has named nothing for (or a page that may not ask)
// is read from its newest positions: moving, parked or silent. Pure: the clock and the silence
// threshold (the server's --silent-after) are given. The state colours are kept apart from every
// device colour (colour.js): a colour on the map means one thing.

export const STATE_COLOURS: Record<string, string> = {
  live: '#15803d',
  parked: '#b45309',
  waiting: '#ca8a04',
  failing: '#ea580c',
  'source-lost': '#0f766e',
  stopped: '#44403c',
  silent: '#6b7280',
  // A motion change on a track (tracks.js): moving as live.
  moving: '#15803d',
};
export const STATE_NAMES: Record<string, string> = {
  live: 'live',
  parked: 'parked',
  waiting: 'waiting',
  failing: 'failing',
  'source-lost': 'no location',
  stopped: 'stopped',
  silent: 'silent',
};

/** A state read from positions, as the server's state it stands for. */
const FROM_POSITIONS: Record<string, string> = { moving: 'live', parked: 'parked', silent: 'silent' };

/**
 * The state to show for a device: the server's (its `health`, as GET /api/health answers it) when
 * it named one, else the one its positions give (`fromPositions`: moving, parked or silent).
 */
export function shownState(health: { state?: string } | null | undefined, fromPositions: string): string {
  if (health?.state !== undefined && Object.hasOwn(STATE_NAMES, health.state)) return health.state;
  return FROM_POSITIONS[fromPositions] ?? 'silent';
}

/** Faster than a walk's drift: below it a "moving" fix is GPS wander around a parked car. */
const MOVING_SPEED_MPS = 1;
/** The newest fix older than this says nothing about moving now. */
const MOVING_FRESH_MS = 5 * 60_000;

const EARTH_M = 6_371_000;
const rad = (deg: number): number => (deg * Math.PI) / 180;

/** A point as the pages pass it: [lat, lon] or [lat, lon, t]. */
export type Point = readonly [number, number, ...number[]];

export function metresBetween(a: Point, b: Point): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.sqrt(h));
}

/** Compass bearing (0 = north, clockwise) from a to b, points as [lat, lon]. */
export function bearing(a: Point, b: Point): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x =
    Math.cos(rad(a[0])) * Math.sin(rad(b[0])) - Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/**
 * The vehicle now, from its newest point and the one before it ([lat, lon, t] each, previous may
 * be null) and when it was last heard from (its last upload, ms; NaN when unknown): silent as the
 * server's device.silent rule says (nothing heard for silentAfterMs), else moving or parked; and
 * its heading (null when it has not moved).
 */
export type TimedPoint = readonly [number, number, number, ...number[]];

export function vehicleNow(
  newest: TimedPoint,
  previous: TimedPoint | null | undefined,
  now: number,
  silentAfterMs: number,
  heardAt = NaN,
): { state: 'silent' | 'parked' | 'moving'; heading: number | null } {
  const age = now - newest[2];
  const heard = Number.isFinite(heardAt) ? Math.max(heardAt, newest[2]) : newest[2];
  if (now - heard > silentAfterMs) return { state: 'silent', heading: null };
  if (!previous || newest[2] <= previous[2]) return { state: 'parked', heading: null };
  const metres = metresBetween(previous, newest);
  const speed = metres / ((newest[2] - previous[2]) / 1000);
  const heading = metres > 2 ? bearing(previous, newest) : null;
  const moving = speed >= MOVING_SPEED_MPS && age <= MOVING_FRESH_MS;
  return { state: moving ? 'moving' : 'parked', heading };
}
