import type { FlatValue } from './flatten-record.js';

/**
 * The default record schema (the anchor's) says "-1 when unknown" for every optional coordinate
 * (coords.accuracy, speed, heading, altitude, altitude_accuracy, ...), the battery level and the
 * activity's confidence; the tracker presets store missing values the same way, and so does a flat
 * `locationTemplate` (`{"lat":..,"lng":..,"altitude":<%= altitude %>,"speed":<%= speed %>}` renders
 * the same -1 under the template's own top-level names). An export that passed -1 on would have a
 * map plot the point at -1 m and a chart show a speed of -1 m/s, so the exports write these as
 * unknown (null, or nothing where the format can leave a value out). An altitude of exactly -1 m
 * is therefore read as unknown too: the schema cannot tell them apart.
 */
const UNKNOWN_AS_MINUS_ONE = new Set(['battery.level', 'activity.confidence']);

/** Top-level names a flat template gives the schema's coordinates (its tags' names, and the usual short ones). */
const FLAT_COORDINATES = new Set([
  'accuracy',
  'speed',
  'heading',
  'altitude',
  'altitude_accuracy',
  'speed_accuracy',
  'heading_accuracy',
  'ellipsoidal_altitude',
  'alt',
  'course',
  'bearing',
  'vertical_accuracy',
  'horizontal_accuracy',
  'battery_level',
  'confidence',
]);

const unknownWhenMinusOne = (name: string): boolean =>
  (name.startsWith('coords.') && name !== 'coords.latitude' && name !== 'coords.longitude') ||
  UNKNOWN_AS_MINUS_ONE.has(name) ||
  FLAT_COORDINATES.has(name);

/**
 * Pairs of an altitude and the vertical accuracy beside it. iOS marks an altitude it does not have
 * with a negative vertical accuracy (CLLocation.verticalAccuracy, "invalid"), and Overland and
 * Traccar Client on iOS then send `altitude: 0`: an elevation profile would dive to sea level.
 */
const ALTITUDE_ACCURACY: readonly [string, string][] = [
  ['coords.altitude', 'coords.altitude_accuracy'],
  ['coords.ellipsoidal_altitude', 'coords.altitude_accuracy'],
  ['altitude', 'altitude_accuracy'],
  ['altitude', 'vertical_accuracy'],
];

/**
 * The fields with unknown values turned into null (in place; returns the same map): the schema's
 * -1, and an altitude of 0 that its own record marks invalid (a negative vertical accuracy).
 */
export function unknownsAsNull(fields: Map<string, FlatValue>): Map<string, FlatValue> {
  for (const [altitude, accuracy] of ALTITUDE_ACCURACY) {
    const vertical = fields.get(accuracy);
    if (fields.get(altitude) === 0 && typeof vertical === 'number' && vertical < 0) fields.set(altitude, null);
  }
  for (const [name, value] of fields) {
    if (value === -1 && unknownWhenMinusOne(name)) fields.set(name, null);
  }
  return fields;
}

/** A known number of the record (a finite number that is not the schema's "unknown"), or null. */
export function knownNumber(fields: Map<string, FlatValue>, ...names: string[]): number | null {
  for (const name of names) {
    const value = fields.get(name);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
}
