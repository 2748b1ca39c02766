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
  // Version 3 (issue 39): the numbering's epoch beside the sequence number.
  'sequence_epoch',
].map((key) => JSON.stringify(key));

const INDEX = new Map(KNOWN_KEYS.map((text, i) => [text, i]));

/** How many of KNOWN_KEYS a version names: a decoder of an older version knows only its own. */
export const knownKeysIn = (version: number): number => (version >= 3 ? KNOWN_KEYS.length : 26);

/** 0 then the key's JSON text, or the known key's index + 1 (when `version` knows it). */
export function writeKey(out: ByteWriter, keyText: string, version: number): void {
  const known = INDEX.get(keyText);
  if (known !== undefined && known < knownKeysIn(version)) return out.uint(known + 1);
  out.uint(0);
  out.text(keyText);
}

export function readKey(input: ByteReader, version: number): string {
  const code = input.uint();
  if (code === 0) return input.text().text;
  const known = code <= knownKeysIn(version) ? KNOWN_KEYS[code - 1] : undefined;
  if (known === undefined) throw invalid(`known key ${code} is not in the list of version ${version}`);
  return known;
}
