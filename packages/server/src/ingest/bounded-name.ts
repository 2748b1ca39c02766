import { createHash } from 'node:crypto';
import { INPUT_LIMITS } from './validation.js';

/** The original of a cut name is kept with the record up to this many characters. */
export const MAX_KEPT_NAME_CHARS = 1000;

/** Characters of the digest that tells two cut names apart. */
const DIGEST_CHARS = 16;

export interface BoundedName {
  /** The device id: the name itself, or its head and a digest of the whole. */
  id: string;
  /** The name as sent (bounded) when it was cut, else null. */
  original: string | null;
}

/** `text` cut to `max` UTF-16 units, never in the middle of a surrogate pair (which no database stores as sent). */
const head = (text: string, max: number): string => text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '');

/**
 * A device name an app sends (OwnTracks' user and device) as a device id of at most maxIdLength
 * characters. An app that counts any answer as delivered would lose its location to a refusal, so
 * a longer name is cut, not refused: its head, `~`, and a digest of the whole name, so that two
 * long names sharing their first 183 characters stay two devices.
 */
export function boundedName(name: string): BoundedName {
  if (name.length <= INPUT_LIMITS.maxIdLength) return { id: name, original: null };
  const digest = createHash('sha256').update(name).digest('hex').slice(0, DIGEST_CHARS);
  return {
    id: `${head(name, INPUT_LIMITS.maxIdLength - DIGEST_CHARS - 1)}~${digest}`,
    original: head(name, MAX_KEPT_NAME_CHARS),
  };
}
