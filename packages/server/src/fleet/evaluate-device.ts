import { evaluateGeofence, type Geofence, type GeofencePresence } from '@waypost/sdk/internal';
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

/** What the server keeps per device between uploads (devices.event_state, JSON). */
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

/** A box around a geofence (latitude/longitude degrees) outside which a point is surely outside it. */
interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
  /** Reaches across the antimeridian (or a pole): longitude says nothing, only latitude is tested. */
  wraps: boolean;
}
const METERS_PER_DEGREE = 111_320;
/**
 * A geofence's bounding box: most records are far from most geofences, and four comparisons say
 * so without the full evaluation and its garbage. The margin (1 % and 10 m, and the widest
 * longitude degree at the box's edge) covers the distance formulas' differences; a polygon's
 * radius is its bounding circle's.
 */
function boxOf(fence: Geofence): Box {
  const reach = fence.radius * 1.01 + 10;
  const dLat = reach / METERS_PER_DEGREE;
  const edgeLat = Math.min(89.9, Math.abs(fence.latitude) + dLat);
  const dLon = Math.min(360, reach / (METERS_PER_DEGREE * Math.cos((edgeLat * Math.PI) / 180)));
  return {
    minLat: fence.latitude - dLat,
    maxLat: fence.latitude + dLat,
    minLon: fence.longitude - dLon,
    maxLon: fence.longitude + dLon,
    wraps: fence.longitude - dLon < -180 || fence.longitude + dLon > 180 || edgeLat >= 89.9,
  };
}

/** The boxes of a geofence list, by position, computed once per list (the process's cached configuration). */
const boxesByList = new WeakMap<readonly Geofence[], readonly Box[]>();
function boxesOf(fences: readonly Geofence[]): readonly Box[] {
  let boxes = boxesByList.get(fences);
  if (!boxes) boxesByList.set(fences, (boxes = fences.map(boxOf)));
  return boxes;
}

/** Whether a device is inside no geofence (then a record outside every box needs no lookup at all). */
const outsideAll = (presence: Record<string, GeofencePresence>): boolean => Object.keys(presence).length === 0;

const outsideBox = (box: Box, p: EvalPoint): boolean =>
  p.lat < box.minLat || p.lat > box.maxLat || (!box.wraps && (p.lon < box.minLon || p.lon > box.maxLon));

const coordinates = (p: EvalPoint) => ({ latitude: p.lat, longitude: p.lon });
/** What an event says of its geofence: an org's names its org (identifiers are unique per org, issue 41). */
const geofenceData = (fence: Geofence & { org?: string }) => ({
  identifier: fence.identifier,
  extras: fence.extras,
  ...(fence.org === undefined ? {} : { org: fence.org }),
});
const position = (p: EvalPoint) => ({ uuid: p.uuid, latitude: p.lat, longitude: p.lon });

function geofenceEvents(
  fences: readonly Geofence[],
  presence: Record<string, GeofencePresence>,
  point: EvalPoint,
  late: boolean,
  wanted: ReadonlySet<EventType>,
  out: DecidedEvent[],
): void {
  const boxes = boxesOf(fences);
  const nowhere = outsideAll(presence);
  for (let i = 0; i < fences.length; i++) {
    const fence = fences[i]!;
    const outside = outsideBox(boxes[i]!, point);
    if (outside && nowhere) continue;
    // Absent means outside (evaluateGeofence treats both alike): the stored state stays small.
    const before = presence[fence.identifier];
    if (outside && !before) continue;
    const { presence: after, transitions } = evaluateGeofence(fence, before, coordinates(point), point.t);
    if (after.inside) presence[fence.identifier] = after;
    else delete presence[fence.identifier];
    if (transitions.length === 0) continue;
    for (const { action } of transitions) {
      const type = ACTION_TYPES[action as keyof typeof ACTION_TYPES];
      if (!type || !wanted.has(type)) continue;
      out.push({
        type,
        at: point.t,
        late,
        key: `${point.uuid}\u0000${fence.identifier}`,
        data: { geofence: geofenceData(fence), location: position(point) },
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
    const edges = stepTrip(state.trip, point);
    if (edges.length > 0) events.push(...tripEvents(edges, late, settings.wanted));
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
      if (at.inside) presence[fence.identifier] = { inside: true, enteredAt: prior.t, dwelled: true };
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
