// The timeline's entries, decided apart from the page (pure): one entry per real event.
// - A trip's start and the device's own "started moving" record are one event seen twice (the
//   server's trip.start comes from that very record): within MERGE_MS they become one entry,
//   "started moving · trip start"; likewise "stopped" and trip.end.
// - "(late)" means the event reached the server more than lateAfterSeconds (the server's option,
//   default 300 s) after it happened: the server flags it, and the page checks the two times too,
//   then says by how much ("late: arrived 2 h 05 min after").
import type { Reply } from '../api-types.js';
import * as fmt from '../settings/format.js';
import { healthSentence } from '../health/health-text.js';

/** GET /api/devices/{id}/fleet-events, as its schema says. */
export type FleetHistory = Reply<'/api/devices/{id}/fleet-events'>;

/** GET /api/dashboard/devices/{id}/events: the motion changes and geofence crossings a device recorded. */
export type RecordedEvent = Reply<'/api/dashboard/devices/{id}/events'>[number];
type FleetEvent = NonNullable<FleetHistory['events']>[number];

/** Where an entry happened, as focusRecord takes it. */
export type Place = { latitude?: number | null; longitude?: number | null; recordedAt: number };

/** One entry of the timeline. */
export type TimelineItem = {
  at: number;
  kind: 'geofence' | 'motion' | 'fleet';
  type?: string | undefined;
  label: string;
  place: Place | null;
};
type Draft = TimelineItem & { moving?: boolean; merged?: boolean };

export const SHOWN = 100;
/** A trip edge and a motion record this close are one event. */
export const MERGE_MS = 60_000;

const object = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

function recordLabel(record: RecordedEvent): string {
  if (record.event === 'geofence') {
    const geofence = object(object(record.record).geofence);
    return 'geofence ' + fmt.text(geofence.action) + ' ' + fmt.text(geofence.identifier);
  }
  return record.isMoving ? 'started moving' : 'stopped';
}

/** "" or " (late: arrived 12 min after)", by the definition above. */
export function lateNote(event: FleetEvent, lateAfterMs: number): string {
  const delay = Date.parse(event.receivedAt ?? '') - Date.parse(event.timestamp ?? '');
  if (event.late !== true || !Number.isFinite(delay) || delay <= lateAfterMs) return '';
  // Days read as days: a batch uploaded months later is "193 d", not "4637 h 08 min".
  const words = delay >= 48 * 3600_000 ? Math.round(delay / 86400_000) + ' d' : fmt.duration(delay);
  return ' (late: arrived ' + words + ' after)';
}

/** A state change in the device list's words: "state: Parked since 10:02:00", never the raw type. */
function stateLabel(data: Record<string, unknown>): string {
  const since = typeof data.since === 'string' ? data.since : null;
  const sentence =
    typeof data.state === 'string' && typeof data.cause === 'string'
      ? healthSentence({ state: data.state, cause: data.cause, since, inferred: data.inferred === true }, null)
      : null;
  return 'state: ' + (sentence ?? 'changed');
}

/** A fleet event's words: "server geofence enter depot", "trip end (12 min)", "went silent". */
function fleetLabel(event: FleetEvent, lateAfterMs: number): string {
  const data = object(event.data);
  const late = lateNote(event, lateAfterMs);
  switch (event.type) {
    case 'geofence.enter':
    case 'geofence.exit':
    case 'geofence.dwell':
      return (
        'server geofence ' +
        event.type.slice('geofence.'.length) +
        ' ' +
        fmt.text(object(data.geofence).identifier) +
        late
      );
    case 'trip.start':
      return 'trip start' + late;
    case 'trip.end':
      return 'trip end (' + fmt.duration(data.durationMs) + ')' + late;
    case 'device.silent':
      return 'went silent';
    case 'device.active':
      return 'reporting again';
    case 'device.state':
      return stateLabel(data);
    default:
      return fmt.text(event.type);
  }
}

/** Where a fleet event happened, as focusRecord takes it; null when it has no place. */
function fleetPlace(event: FleetEvent, at: number): Place | null {
  const data = object(event.data);
  const place = object(data.location ?? (event.type === 'trip.end' ? data.end : data.start));
  return typeof place.latitude === 'number' && typeof place.longitude === 'number'
    ? { latitude: place.latitude, longitude: place.longitude, recordedAt: at }
    : null;
}

/** The motion record a trip edge is the same event as, if any (and not taken by another edge). */
function twinOf(items: Draft[], event: FleetEvent, at: number): Draft | null {
  const moving = event.type === 'trip.start' ? true : event.type === 'trip.end' ? false : null;
  if (moving === null) return null;
  let best: Draft | null = null;
  for (const item of items) {
    if (item.kind !== 'motion' || item.merged || item.moving !== moving) continue;
    const apart = Math.abs(item.at - at);
    if (apart <= MERGE_MS && (!best || apart < Math.abs(best.at - at))) best = item;
  }
  return best;
}

/** Records and fleet history as entries { at, kind, type?, label, place }, newest first. */
export function timelineItems(records: RecordedEvent[], history: FleetHistory, lateAfterMs: number): TimelineItem[] {
  const items = records.map((record): Draft => ({
    at: record.recordedAt,
    kind: record.event === 'geofence' ? 'geofence' : 'motion',
    moving: record.isMoving === true,
    label: recordLabel(record),
    place: record,
  }));
  const fleet: TimelineItem[] = [];
  for (const event of history.events ?? []) {
    const at = Date.parse(event.timestamp ?? '');
    const label = fleetLabel(event, lateAfterMs);
    const twin = twinOf(items, event, at);
    if (twin) {
      // One entry: the device's words first, the server's after; the server's type for styling.
      Object.assign(twin, { merged: true, kind: 'fleet', type: event.type, label: twin.label + ' · ' + label });
      continue;
    }
    fleet.push({ at, kind: 'fleet', type: event.type, label, place: fleetPlace(event, at) });
  }
  // Newest first; of equal times the later one in the device's order first (the sort is stable).
  return [...items, ...fleet]
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.at - a.item.at || b.index - a.index)
    .map(({ item }) => ({ at: item.at, kind: item.kind, type: item.type, label: item.label, place: item.place }))
    .slice(0, SHOWN);
}
