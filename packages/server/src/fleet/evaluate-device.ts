import { evaluateGeofence, type Geofence, type GeofencePresence } from '@waypost/sdk/internal';
import { nearMeters, type TrackPoint } from '../tracks/split-trips.js';
import { closeTrip, emptyTrip, stepTrip, type TripEdge, type TripState } from '../tracks/trip-tracker.js';
import type { DecidedEvent, EventType } from './fleet-event.js';

/** A stored record with a position, as the evaluation sees it. */
export interface EvalPoint {
  uuid: string;
  t: number;
  lat: number;
  lon: number;
  /** The record as stored (the `location` event's data). */
  record?: Record<string, unknown>;
}

/** What the server keeps per device between uploads (device_event_state.state, JSON). */
export interface DeviceEventState {
  /** Presence per geofence identifier. */
  fences: Record<string, GeofencePresence>;
  trip: TripState;
}

export const emptyDeviceState = (): DeviceEventState => ({ fences: {}, trip: emptyTrip() });

export interface EvalSettings {
  /** Event types some sink wants: others are not decided at all. */
  wanted: ReadonlySet<EventType>;
  /** When the records arrived (epoch ms). */
  receivedAt: number;
  /** A record that arrives more than this long after it was recorded makes late events. */
  lateAfterMs: number;
}

const ACTION_TYPES = { ENTER: 'geofence.enter', EXIT: 'geofence.exit', DWELL: 'geofence.dwell' } as const;

const centres = new WeakMap<Geofence, TrackPoint>();
/** A geofence's centre as a track point (for nearMeters), computed once per geofence object. */
function fenceCentre(fence: Geofence): TrackPoint {
  let centre = centres.get(fence);
  if (!centre) centres.set(fence, (centre = { t: 0, lat: fence.latitude, lon: fence.longitude }));
  return centre;
}

const coordinates = (p: EvalPoint) => ({ latitude: p.lat, longitude: p.lon });
const position = (p: EvalPoint) => ({ uuid: p.uuid, latitude: p.lat, longitude: p.lon });

function geofenceEvents(
  fences: readonly Geofence[],
  presence: Record<string, GeofencePresence>,
  point: EvalPoint,
  late: boolean,
  wanted: ReadonlySet<EventType>,
  out: DecidedEvent[],
): void {
  for (const fence of fences) {
    const before = presence[fence.identifier];
    // Most records are far from most geofences: a cheap distance says so without the full
    // evaluation and its garbage (the margin covers the two distance formulas' difference).
    if (!before?.inside && nearMeters(fenceCentre(fence), point) > fence.radius * 1.01 + 10) {
      presence[fence.identifier] ??= { inside: false, enteredAt: null, dwelled: false };
      continue;
    }
    const { presence: after, transitions } = evaluateGeofence(fence, before, coordinates(point), point.t);
    presence[fence.identifier] = after;
    for (const { action } of transitions) {
      const type = ACTION_TYPES[action as keyof typeof ACTION_TYPES];
      if (!type || !wanted.has(type)) continue;
      out.push({
        type,
        at: point.t,
        late,
        key: `${point.uuid}\u0000${fence.identifier}`,
        data: { geofence: { identifier: fence.identifier, extras: fence.extras }, location: position(point) },
      });
    }
  }
}

export function tripEvents(edges: TripEdge[], late: boolean, wanted: ReadonlySet<EventType>): DecidedEvent[] {
  return edges
    .filter((edge) => wanted.has(edge.type))
    .map((edge) => ({
      type: edge.type,
      at: edge.at.t,
      late,
      key: String(edge.start.t),
      data: {
        startedAt: new Date(edge.start.t).toISOString(),
        start: { latitude: edge.start.lat, longitude: edge.start.lon },
        ...(edge.type === 'trip.end'
          ? { durationMs: edge.at.t - edge.start.t, end: { latitude: edge.at.lat, longitude: edge.at.lon } }
          : {}),
      },
    }));
}

function locationEvent(point: EvalPoint, late: boolean): DecidedEvent {
  return { type: 'location', at: point.t, late, key: point.uuid, data: point.record ?? position(point) };
}

/**
 * The events a device's new records make, in its recorded-time order (points sorted by time, all
 * at or after the last one evaluated), and its state afterwards. Pure: the caller stores both.
 */
export function evaluateInOrder(
  state: DeviceEventState,
  points: readonly EvalPoint[],
  fences: readonly Geofence[],
  settings: EvalSettings,
): DecidedEvent[] {
  const events: DecidedEvent[] = [];
  // Presence of a geofence deleted since is forgotten: recreated, it starts afresh.
  const known = new Set(fences.map((f) => f.identifier));
  for (const id of Object.keys(state.fences)) if (!known.has(id)) delete state.fences[id];
  for (const point of points) {
    const late = settings.receivedAt - point.t > settings.lateAfterMs;
    if (settings.wanted.has('location')) events.push(locationEvent(point, late));
    geofenceEvents(fences, state.fences, point, late, settings.wanted, events);
    events.push(...tripEvents(stepTrip(state.trip, point), late, settings.wanted));
  }
  return events;
}

/** Ends a device's open trip (it went silent): the trip edges still owed. */
export function closeDeviceTrip(state: DeviceEventState, wanted: ReadonlySet<EventType>): DecidedEvent[] {
  return tripEvents(closeTrip(state.trip), false, wanted);
}

/** A point of a late segment: a record stored before, or one of the records arriving now. */
export interface SegmentPoint extends EvalPoint {
  arriving: boolean;
}

/**
 * Records that arrive behind ones already evaluated (out of order, or a batch days old): their
 * geofence events in device time, all late. The presence before them is taken from the stored
 * record just before (`prior`: inside or not; a stay already under way is taken as dwelled); the
 * segment runs through the stored records among and just after them, and only steps that touch an
 * arriving record make events. Events already sent are never taken back, so a late record can add
 * an enter or exit between them; the ids stay stable, so one it repeats is deduplicated. Trips are
 * not re-cut by late records.
 */
export function evaluateLateSegment(
  prior: EvalPoint | null,
  segment: readonly SegmentPoint[],
  fences: readonly Geofence[],
  wanted: ReadonlySet<EventType>,
): DecidedEvent[] {
  const presence: Record<string, GeofencePresence> = {};
  if (prior) {
    for (const fence of fences) {
      const { presence: at } = evaluateGeofence(fence, undefined, coordinates(prior), prior.t);
      presence[fence.identifier] = at.inside ? { inside: true, enteredAt: prior.t, dwelled: true } : at;
    }
  }
  const events: DecidedEvent[] = [];
  let previousArriving = false;
  for (const point of segment) {
    const step: DecidedEvent[] = [];
    if (point.arriving && wanted.has('location')) step.push(locationEvent(point, true));
    // The first point with no prior: its presence is its own (an entry when inside).
    geofenceEvents(fences, presence, point, true, wanted, step);
    if (point.arriving || previousArriving) events.push(...step);
    previousArriving = point.arriving;
  }
  return events;
}
