import type { GeofenceAction } from '../records/location.js';
import { distanceMeters } from '../geometry/distance.js';
import type { Geofence } from './geofence.js';

/** Where the device was, relative to one geofence, after the last location. */
export interface GeofencePresence {
  inside: boolean;
  enteredAt: number | null;
  dwelled: boolean;
}

export interface GeofenceTransition {
  identifier: string;
  action: GeofenceAction;
}

/**
 * Pure: the transitions one location causes, and the presence afterwards. The first location
 * inside a geofence counts as an entry (the anchor's geofenceInitialTriggerEntry default);
 * DWELL fires once per stay, when the device has been inside for loiteringDelay.
 */
export function evaluateGeofence(
  geofence: Geofence,
  before: GeofencePresence | undefined,
  point: { latitude: number; longitude: number },
  now: number,
  /** geolocation.geofenceInitialTriggerEntry: false makes the first location inside no ENTER. */
  initialTriggerEntry = true,
): { presence: GeofencePresence; transitions: GeofenceTransition[] } {
  const inside = geofence.vertices
    ? insidePolygon(geofence.vertices, point)
    : distanceMeters(geofence, point) <= geofence.radius;
  const was = before ?? { inside: false, enteredAt: null, dwelled: false };
  const transitions: GeofenceTransition[] = [];
  const add = (action: GeofenceAction) => transitions.push({ identifier: geofence.identifier, action });
  if (inside && !was.inside) {
    if (geofence.notifyOnEntry && (initialTriggerEntry || before !== undefined)) add('ENTER');
    return { presence: dwellCheck(geofence, { inside, enteredAt: now, dwelled: false }, now, add), transitions };
  }
  if (!inside && was.inside) {
    if (geofence.notifyOnExit) add('EXIT');
    return { presence: { inside: false, enteredAt: null, dwelled: false }, transitions };
  }
  if (inside) return { presence: dwellCheck(geofence, was, now, add), transitions };
  return { presence: was, transitions };
}

/**
 * Ray casting on latitude/longitude: exact enough for geofence-sized polygons (a few km), which
 * is what the anchor's polygon geofences are. Polygons across the antimeridian are not supported.
 */
export function insidePolygon(vertices: readonly (readonly [number, number])[], point: Point): boolean {
  let inside = false;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const [latI, lngI] = vertices[i]!;
    const [latJ, lngJ] = vertices[j]!;
    const crosses = latI > point.latitude !== latJ > point.latitude;
    if (crosses && point.longitude < ((lngJ - lngI) * (point.latitude - latI)) / (latJ - latI) + lngI) inside = !inside;
  }
  return inside;
}

type Point = { latitude: number; longitude: number };

function dwellCheck(
  geofence: Geofence,
  presence: GeofencePresence,
  now: number,
  add: (action: GeofenceAction) => void,
): GeofencePresence {
  if (!geofence.notifyOnDwell || presence.dwelled || presence.enteredAt === null) return presence;
  if (now - presence.enteredAt < geofence.loiteringDelay) return presence;
  add('DWELL');
  return { ...presence, dwelled: true };
}
