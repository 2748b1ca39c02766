import { trackerHints } from '../presets/motion-hints.js';
import type { LastRecord } from './decide-state.js';

const MAX_RECORD_CHARS = 65_536;

/**
 * What a stored record says about its device's state (motion, battery), for trackers that send no
 * health report: the SDK shape (is_moving, activity.type, battery.level/is_charging) which the
 * presets (OwnTracks, Overland, OsmAnd, Traccar Client) store as well, and what a tracker's own
 * message says about going quiet (OwnTracks `m`, `conn`). Anything unreadable is unknown.
 */
export function lastRecordOf(text: string | null): LastRecord | null {
  if (text === null || text.length > MAX_RECORD_CHARS) return null;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (record === null || typeof record !== 'object') return null;
  const at = Date.parse(String(record.timestamp ?? ''));
  const activity = (record.activity as { type?: unknown } | undefined)?.type;
  const moving =
    typeof record.is_moving === 'boolean'
      ? record.is_moving
      : typeof activity === 'string'
        ? activity !== 'still' && activity !== 'unknown'
        : null;
  const battery = record.battery as { level?: unknown; is_charging?: unknown } | undefined;
  const level = typeof battery?.level === 'number' ? battery.level : null;
  return {
    at: Number.isFinite(at) ? at : 0,
    moving,
    battery: level === null ? null : { level, charging: battery?.is_charging === true },
    ...trackerHints(record),
  };
}
