import { isObject } from './record-parts.js';

/** Apple's motion activities (CMMotionActivity) as Overland and OwnTracks for iOS send them. */
const MOVING_ACTIVITIES = new Set(['walking', 'running', 'cycling', 'driving', 'automotive']);

/**
 * Whether a list of motion activities says the device moves (`is_moving`), else undefined:
 * `stationary` wins (CMMotionActivity sets it beside `automotive` in a car stopped at a light, as in
 * Overland's README sample `["driving","stationary"]`); `unknown` or nothing says nothing.
 */
export function movingOf(activities: unknown): boolean | undefined {
  if (!Array.isArray(activities)) return undefined;
  if (activities.includes('stationary')) return false;
  return activities.some((a) => typeof a === 'string' && MOVING_ACTIVITIES.has(a)) ? true : undefined;
}

/** What a tracker's own message says about why it may go quiet (read from the stored record's `source`). */
export interface TrackerHints {
  /** It reports on significant moves only (OwnTracks monitoring mode `m: 1`): quiet while it stays put. */
  significantOnly: boolean;
  /** It had no connection when it made the message (OwnTracks `conn: "o"`). */
  offline: boolean;
}

/** The hints of a stored record that came from a tracker (extras.source names which), else none. */
export function trackerHints(record: Record<string, unknown>): TrackerHints {
  const extras = isObject(record.extras) ? record.extras : {};
  const source = isObject(record.source) ? record.source : {};
  if (extras.source !== 'owntracks') return { significantOnly: false, offline: false };
  return { significantOnly: source.m === 1, offline: source.conn === 'o' };
}
