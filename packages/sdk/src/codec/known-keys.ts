import { type ByteReader, type ByteWriter, invalid } from './bytes.js';

/**
 * Key names written as one byte: the default schema's and the spec's root key. The list is part
 * of the format (docs/wire-format.md) and only ever grows at its end; any other key is written as
 * its JSON text. A single record's key names would otherwise cost more than its values.
 */
export const KNOWN_KEYS = [
  'location',
  'uuid',
  'timestamp',
  'is_moving',
  'odometer',
  'event',
  'mock',
  'coords',
  'latitude',
  'longitude',
  'accuracy',
  'speed',
  'heading',
  'altitude',
  'altitude_accuracy',
  'activity',
  'type',
  'confidence',
  'battery',
  'level',
  'is_charging',
  'extras',
  'geofence',
  'identifier',
  'action',
  'sequence',
].map((key) => JSON.stringify(key));

const INDEX = new Map(KNOWN_KEYS.map((text, i) => [text, i]));

/** 0 then the key's JSON text, or the known key's index + 1. */
export function writeKey(out: ByteWriter, keyText: string): void {
  const known = INDEX.get(keyText);
  if (known !== undefined) return out.uint(known + 1);
  out.uint(0);
  out.text(keyText);
}

export function readKey(input: ByteReader): string {
  const code = input.uint();
  if (code === 0) return input.text().text;
  const known = KNOWN_KEYS[code - 1];
  if (known === undefined) throw invalid(`known key ${code} is not in the list`);
  return known;
}
