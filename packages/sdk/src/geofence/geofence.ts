import type { JsonObject } from '../config/types.js';
import { WaypostError } from '../errors.js';
import { distanceMeters } from '../geometry/distance.js';
import { jsonProblem } from '../records/json-bounds.js';

/** A polygon's corners as [latitude, longitude] pairs (the anchor's Vertices). */
export type Vertices = [number, number][];

/**
 * A geofence in the anchor's shape: a circle, or a polygon when `vertices` are given (then
 * latitude/longitude/radius describe the circle around it, computed when not given).
 * loiteringDelay is in milliseconds.
 */
export interface Geofence {
  identifier: string;
  latitude: number;
  longitude: number;
  radius: number;
  notifyOnEntry: boolean;
  notifyOnExit: boolean;
  notifyOnDwell: boolean;
  loiteringDelay: number;
  extras: JsonObject;
  vertices?: Vertices;
}

export type GeofenceInput = Partial<Geofence> & Pick<Geofence, 'identifier'>;

/** A value as a message shows it: objects are never serialized (they may be huge or nested without bound). */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}...` : value);
  return value !== null && typeof value === 'object' ? 'this value' : String(value);
}

function invalid(field: string, value: unknown, expected: string): never {
  throw new WaypostError(
    'INVALID_GEOFENCE',
    `Geofence ${field}: ${shown(value)} is not valid; expected ${expected}.`,
    field,
  );
}

function number(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    invalid(field, value, `a number from ${min} to ${max}`);
  }
  return value;
}

function flag(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') invalid(field, value, 'true or false');
  return value;
}

/** Validates a geofence completely; defaults: notify on entry and exit, not on dwell. */
export function parseGeofence(input: unknown): Geofence {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) invalid('input', input, 'an object');
  const g = input as Record<string, unknown>;
  if (typeof g.identifier !== 'string' || g.identifier.length === 0 || g.identifier.length > 256)
    invalid('identifier', g.identifier, 'a non-empty string of at most 256 characters');
  const extras = g.extras ?? {};
  if (extras === null || typeof extras !== 'object' || Array.isArray(extras)) invalid('extras', extras, 'an object');
  const extrasProblem = jsonProblem(extras);
  if (extrasProblem) invalid('extras', extras, `bounded JSON (it has ${extrasProblem})`);
  const loiteringDelay = g.loiteringDelay ?? 0;
  if (typeof loiteringDelay !== 'number' || !Number.isInteger(loiteringDelay) || loiteringDelay < 0) {
    invalid('loiteringDelay', loiteringDelay, 'milliseconds, an integer >= 0');
  }
  const vertices = g.vertices === undefined ? undefined : parseVertices(g.vertices);
  const around = vertices ? enclosingCircle(vertices) : undefined;
  return {
    identifier: g.identifier,
    latitude: number('latitude', g.latitude ?? around?.latitude, -90, 90),
    longitude: number('longitude', g.longitude ?? around?.longitude, -180, 180),
    radius: number('radius', g.radius ?? around?.radius, 1, 1_000_000),
    notifyOnEntry: flag('notifyOnEntry', g.notifyOnEntry, true),
    notifyOnExit: flag('notifyOnExit', g.notifyOnExit, true),
    notifyOnDwell: flag('notifyOnDwell', g.notifyOnDwell, false),
    loiteringDelay,
    extras: JSON.parse(JSON.stringify(extras)) as JsonObject,
    ...(vertices ? { vertices } : {}),
  };
}

/** A bound on the corners of one polygon: evaluation is linear in them, on every location. */
export const MAX_VERTICES = 1000;

function parseVertices(value: unknown): Vertices {
  const expected = `a list of 3 to ${MAX_VERTICES} [latitude, longitude] pairs`;
  if (!Array.isArray(value) || value.length < 3 || value.length > MAX_VERTICES) {
    invalid('vertices', Array.isArray(value) ? `${value.length} vertices` : value, expected);
  }
  return value.map((vertex, i) => {
    if (!Array.isArray(vertex) || vertex.length !== 2)
      invalid(`vertices[${i}]`, vertex, 'a [latitude, longitude] pair');
    return [number(`vertices[${i}][0]`, vertex[0], -90, 90), number(`vertices[${i}][1]`, vertex[1], -180, 180)] as [
      number,
      number,
    ];
  });
}

/** The polygon's mean corner and the distance to its farthest corner (at least 1 m). */
function enclosingCircle(vertices: Vertices): { latitude: number; longitude: number; radius: number } {
  const latitude = vertices.reduce((sum, [lat]) => sum + lat, 0) / vertices.length;
  const longitude = vertices.reduce((sum, [, lng]) => sum + lng, 0) / vertices.length;
  const radius = Math.max(
    1,
    ...vertices.map(([lat, lng]) => distanceMeters({ latitude, longitude }, { latitude: lat, longitude: lng })),
  );
  return { latitude, longitude, radius: Math.ceil(radius) };
}
