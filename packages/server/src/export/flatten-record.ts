/**
 * A stored record as flat fields, for the exports that are tables (CSV) or flat property lists
 * (GeoJSON properties, GPX extensions): nested objects become dotted names (coords.speed,
 * battery.level, extras.trip), arrays and anything deeper than MAX_DEPTH stay as JSON text.
 */
export type FlatValue = string | number | boolean | null;

const MAX_DEPTH = 6;

export function flattenRecord(record: unknown): Map<string, FlatValue> {
  const fields = new Map<string, FlatValue>();
  const walk = (value: unknown, name: string, depth: number) => {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      fields.set(name, value);
    } else if (typeof value === 'object' && !Array.isArray(value) && depth < MAX_DEPTH) {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        walk(inner, name === '' ? key : `${name}.${key}`, depth + 1);
      }
    } else if (value !== undefined) {
      fields.set(name, JSON.stringify(value));
    }
  };
  if (record !== null && typeof record === 'object' && !Array.isArray(record)) walk(record, '', 0);
  else if (record !== undefined) fields.set('record', JSON.stringify(record));
  return fields;
}

/** Every field name of these records, in the order first seen: the columns of a table of them. */
export function fieldNames(records: readonly Map<string, FlatValue>[]): string[] {
  const names = new Set<string>();
  for (const fields of records) for (const name of fields.keys()) names.add(name);
  return [...names];
}
