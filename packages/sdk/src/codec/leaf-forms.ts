import { addWrapping, type ByteReader, type ByteWriter, invalid, lastWord } from './bytes.js';

/**
 * The two string forms a column may carry as numbers: ISO-8601 UTC timestamps with milliseconds
 * (the default schema's `timestamp`) as epoch milliseconds, and canonical lower-case uuids as 16
 * bytes, each a small difference from the one before when they are sequential (record uuids).
 */

/** `YYYY-MM-DDTHH:MM:SS.mmmZ`: 0 where a digit goes, else the character's code. */
const SHAPE = Array.from('0000-00-00T00:00:00.000Z', (c) => (c === '0' ? 0 : c.charCodeAt(0)));
const isDigit = (text: string, at: number) => text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57;

const digits = (text: string, from: number, to: number): number => {
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
};
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * Epoch milliseconds of `YYYY-MM-DDTHH:MM:SS.mmmZ` from 1970 on, else null. Every field is checked
 * against its range (days against the month), so the text is exactly what toISOString writes for
 * those milliseconds; read by hand, as it is on every record of every batch.
 */
export function readIsoMillis(value: unknown): number | null {
  if (typeof value !== 'string' || value.length !== 24) return null;
  for (let i = 0; i < 24; i++)
    if (value.charCodeAt(i) !== SHAPE[i] && !(SHAPE[i] === 0 && isDigit(value, i))) return null;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  const hour = digits(value, 11, 13);
  const minute = digits(value, 14, 16);
  const second = digits(value, 17, 19);
  const milli = digits(value, 20, 23);
  if (year < 1970 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const days = month === 2 && leap(year) ? 29 : DAYS[month - 1]!;
  if (day < 1 || day > days) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, milli);
}

const DAY_MS = 86_400_000;
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The JSON texts (quoted) of decoded timestamps, as toISOString writes them. A batch's fixes share
 * their day: its text is made once and only the time of day is formatted per value.
 */
export class IsoTexts {
  private day = -1;
  private date = '';

  text(millis: number): string {
    // Years 1970-9999 only: toISOString writes other years with a sign and six digits.
    if (millis < 0 || millis > 253_402_300_799_999) throw invalid(`timestamp ${millis} is out of range`);
    const day = Math.floor(millis / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.date = `"${new Date(day * DAY_MS).toISOString().slice(0, 11)}`;
    }
    let rest = millis - day * DAY_MS;
    const ms = rest % 1000;
    rest = (rest - ms) / 1000;
    const seconds = rest % 60;
    rest = (rest - seconds) / 60;
    const minutes = rest % 60;
    const hours = (rest - minutes) / 60;
    return `${this.date}${two(hours)}:${two(minutes)}:${two(seconds)}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  }
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

/** The JSON text (quoted) of a uuid's bytes; `sharing` is a text with the same first 12 bytes. */
export function uuidText(bytes: Uint8Array, sharing: string | null = null): string {
  let tail = '';
  for (let i = 12; i < 16; i++) tail += HEX[bytes[i]!]!;
  if (sharing !== null) return `${sharing.slice(0, 29)}${tail}"`;
  let hex = '';
  for (let i = 0; i < 12; i++) hex += HEX[bytes[i]!]!;
  hex += tail;
  return `"${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}"`;
}

export const samePrefix = (a: Uint8Array, b: Uint8Array): boolean => {
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
  out.uint(addWrapping(lastWord(bytes), 2 ** 32 - lastWord(previous)) + 1);
}

export function readUuid(input: ByteReader, previous: Uint8Array): Uint8Array {
  const code = input.bounded(2 ** 32, 'a uuid step');
  if (code === 0) return input.bytes(16).slice();
  const bytes = previous.slice();
  const last = addWrapping(lastWord(previous), code - 1);
  bytes[12] = last >>> 24;
  bytes[13] = (last >>> 16) & 0xff;
  bytes[14] = (last >>> 8) & 0xff;
  bytes[15] = last & 0xff;
  return bytes;
}
