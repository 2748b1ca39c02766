import type { FlatValue } from './flatten-record.js';

/**
 * The default record schema (the anchor's) says "-1 when unknown" for every optional coordinate
 * (coords.accuracy, speed, heading, altitude, altitude_accuracy, ...), the battery level and the
 * activity's confidence; the tracker presets store missing values the same way. An export that
 * passed -1 on would have a map plot the point at -1 m and a chart show a speed of -1 m/s, so the
 * exports write these as unknown (null, or nothing where the format can leave a value out).
 * An altitude of exactly -1 m is therefore read as unknown too: the schema cannot tell them apart.
 */
const UNKNOWN_AS_MINUS_ONE = new Set(['battery.level', 'activity.confidence']);

const unknownWhenMinusOne = (name: string): boolean =>
  (name.startsWith('coords.') && name !== 'coords.latitude' && name !== 'coords.longitude') ||
  UNKNOWN_AS_MINUS_ONE.has(name);

/** The fields with the schema's -1 "unknown" turned into null (in place; returns the same map). */
export function unknownsAsNull(fields: Map<string, FlatValue>): Map<string, FlatValue> {
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
