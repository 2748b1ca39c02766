import { addWrapping, type ByteReader, type ByteWriter, invalid, wordsOf } from './bytes.js';

/**
 * The two string forms a column may carry as numbers: ISO-8601 UTC timestamps with milliseconds
 * (the default schema's `timestamp`) as epoch milliseconds, and canonical lower-case uuids as 16
 * bytes, each a small difference from the one before when they are sequential (record uuids).
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Epoch milliseconds of an ISO text that Date.prototype.toISOString gives back exactly, else null. */
export function readIsoMillis(value: unknown): number | null {
  if (typeof value !== 'string' || value.length !== 24 || value.charCodeAt(23) !== 90 || !ISO.test(value)) return null;
  const millis = Date.parse(value);
  return millis >= 0 && new Date(millis).toISOString() === value ? millis : null;
}

/** The JSON text (quoted) of a decoded timestamp. */
export function isoText(millis: number): string {
  // Years 0-9999 only: toISOString writes other years with a sign and six digits, never sent.
  if (millis < 0 || millis > 253_402_300_799_999) throw invalid(`timestamp ${millis} is out of range`);
  return `"${new Date(millis).toISOString()}"`;
}

/** Hex digit values by character code (lower case only: upper case uuids stay verbatim). */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
const DASHES = [8, 13, 18, 23];

/** The 16 bytes of a canonical lower-case uuid text, else null. */
export function uuidBytes(value: unknown): Uint8Array | null {
  if (typeof value !== 'string' || value.length !== 36) return null;
  for (const at of DASHES) if (value.charCodeAt(at) !== 45) return null;
  const bytes = new Uint8Array(16);
  for (let i = 0, at = 0; i < 16; i++, at += 2) {
    if (at === 8 || at === 13 || at === 18 || at === 23) at++;
    const high = NIBBLE[value.charCodeAt(at)] ?? -1;
    const low = NIBBLE[value.charCodeAt(at + 1)] ?? -1;
    if (high < 0 || low < 0) return null;
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The JSON text (quoted) of a uuid's bytes. */
export function uuidText(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < 16; i++) hex += HEX[bytes[i]!]!;
  return `"${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}"`;
}

const samePrefix = (a: Uint8Array, b: Uint8Array): boolean => {
  for (let i = 0; i < 12; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Code 0 then 16 bytes; or code d + 1: the previous uuid with its last 32 bits plus d (mod 2^32). */
export function writeUuid(out: ByteWriter, bytes: Uint8Array, previous: Uint8Array): void {
  if (!samePrefix(bytes, previous)) {
    out.uint(0);
    out.bytes(bytes);
    return;
  }
  const [, , , last] = wordsOf(bytes);
  const [, , , previousLast] = wordsOf(previous);
  out.uint(addWrapping(last!, 2 ** 32 - previousLast!) + 1);
}

export function readUuid(input: ByteReader, previous: Uint8Array): Uint8Array {
  const code = input.bounded(2 ** 32, 'a uuid step');
  if (code === 0) return input.bytes(16).slice();
  const bytes = previous.slice();
  const last = addWrapping(wordsOf(previous)[3]!, code - 1);
  bytes[12] = last >>> 24;
  bytes[13] = (last >>> 16) & 0xff;
  bytes[14] = (last >>> 8) & 0xff;
  bytes[15] = last & 0xff;
  return bytes;
}
