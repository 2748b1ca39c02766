import { ByteReader, ByteWriter, CodecError, invalid } from './bytes.js';
import { readKey, writeKey } from './known-keys.js';
import { BoundedText, checkCount, COLUMNAR_LIMITS } from './limits.js';
import { decodeTable } from './table-decode.js';
import { encodeTable, isPlainObject } from './table-encode.js';

/**
 * The columnar form of an upload body (docs/wire-format.md): a version byte, then one value.
 * An array of records is a table; a body holding one (`{"location":[...], ...params}`) is an
 * object whose members are tables or verbatim JSON; a single record is a one-row table. The
 * decoder writes JSON text itself, key order and number spelling included, so the decoded body
 * is the sent body byte for byte; the encoder checks that before anything is sent.
 */

/**
 * The versions this decoder reads. Version 2 adds third differences and warm-up (int-runs.ts), version 3
 * the known key `sequence_epoch` and a preset of the default record with it (issue 39); each version
 * has its own content-coding token (http/compression.ts), so a server that decodes only version 1
 * is never sent a version 2 body.
 */
export const COLUMNAR_VERSIONS = [1, 2, 3] as const;
export type ColumnarVersion = (typeof COLUMNAR_VERSIONS)[number];
export const COLUMNAR_VERSION: ColumnarVersion = 3;

const Tag = { Verbatim: 0, Object: 1, Table: 2, Row: 3 } as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) && Object.keys(value).length > 0;

const isTable = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) && value.length > 0 && value.every(isPlainObject);

function writeVerbatim(out: ByteWriter, value: unknown): void {
  out.byte(Tag.Verbatim);
  out.text(JSON.stringify(value));
}

function writeTable(out: ByteWriter, rows: Record<string, unknown>[], tag: number, version: number): void {
  const table = new ByteWriter();
  if (!encodeTable(table, rows, version)) return writeVerbatim(out, tag === Tag.Row ? rows[0] : rows);
  out.byte(tag);
  out.bytes(table.result());
}

function writeMembers(out: ByteWriter, body: Record<string, unknown>, keys: string[], version: number): void {
  out.byte(Tag.Object);
  out.uint(keys.length);
  for (const key of keys) {
    writeKey(out, JSON.stringify(key), version);
    const value = body[key];
    if (isTable(value)) writeTable(out, value, Tag.Table, version);
    else if (version >= 2 && isRecord(value)) writeTable(out, [value], Tag.Row, version);
    else writeVerbatim(out, value);
  }
}

function writeBody(out: ByteWriter, body: unknown, version: number): void {
  if (isTable(body)) return writeTable(out, body, Tag.Table, version);
  if (!isPlainObject(body)) return writeVerbatim(out, body);
  const keys = Object.keys(body);
  if (keys.length > COLUMNAR_LIMITS.maxKeys) return writeTable(out, [body], Tag.Row, version);
  if (keys.some((key) => isTable(body[key]))) return writeMembers(out, body, keys, version);
  if (version < 2 || !keys.some((key) => isRecord(body[key]))) return writeTable(out, [body], Tag.Row, version);
  // Version 2, one record: as one row, or split into members ({"location": {...}, ...params}: the
  // record a row of its own, whose shape may be a preset, params verbatim), whichever is shorter.
  const whole = new ByteWriter();
  writeTable(whole, [body], Tag.Row, version);
  const split = new ByteWriter();
  writeMembers(split, body, keys, version);
  out.bytes((split.length < whole.length ? split : whole).result());
}

/**
 * The columnar bytes of a JSON body in `version` (not yet compressed), or null when they would not
 * decode to exactly `body`: such a body is sent another way (gzip).
 *
 * Why checking that `body` is JSON.stringify's text of its own parse is enough, without decoding
 * (a full decode and compare cost the SDK more than the encoding itself): the decoder writes
 * JSON.stringify's text of the parsed value by construction. Keys are written as JSON.stringify
 * writes them, in Object.keys order (JSON.stringify's); strings, booleans, null, arrays and `{}`
 * as their JSON.stringify text; numbers as scaled integers only when k / 10^scale is exactly the
 * number, printed as JSON.stringify prints it (decimal.ts); timestamps only when every field is in
 * range, so the milliseconds print back to the same text (leaf-forms.ts); uuids only in canonical
 * lower case. What the check refuses is what JSON.parse does not give back: whitespace, keys it
 * reorders (integer-like keys after others), duplicate keys, other spellings of numbers or
 * escapes. The property tests (columnar-roundtrip.test.ts) decode every body they encode.
 *
 * `canonical`: the caller knows `body` is JSON.stringify's text (the upload path's bodies, spliced
 * from stored records: http/payload.ts says when), so the check, a third of the encoder's CPU, is
 * skipped: JSON.stringify of the parse of JSON.stringify's text is that text.
 */
export function encodeColumnar(
  body: string,
  version: ColumnarVersion = COLUMNAR_VERSION,
  canonical = false,
): Uint8Array | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!canonical && JSON.stringify(parsed) !== body) return null;
  const out = new ByteWriter();
  out.byte(version);
  writeBody(out, parsed, version);
  return out.result();
}

function readValue(input: ByteReader, out: BoundedText, depth: number, version: number): void {
  const tag = input.byte();
  if (tag === Tag.Verbatim) return out.push(input.text().text);
  if (tag === Tag.Table || tag === Tag.Row) return decodeTable(input, out, tag === Tag.Table, version);
  if (tag !== Tag.Object || depth > 0) throw invalid(`value tag ${tag} is unknown here`);
  const count = checkCount(input.uint(), COLUMNAR_LIMITS.maxKeys, 'an object key count');
  out.push('{');
  for (let i = 0; i < count; i++) {
    out.push(`${i === 0 ? '' : ','}${readKey(input, version)}:`);
    readValue(input, out, depth + 1, version);
  }
  out.push('}');
}

/**
 * The JSON text of columnar bytes; throws CodecError (INVALID_COLUMNAR for malformed input,
 * BODY_TOO_LARGE the moment the text would pass `limit` characters, TOO_MANY_VALUES when its
 * tables declare more than `maxObjects` objects and arrays, before any row is written).
 */
export function decodeColumnar(bytes: Uint8Array, limit: number, maxObjects = Infinity): string {
  const input = new ByteReader(bytes);
  const version = input.byte();
  if (!(COLUMNAR_VERSIONS as readonly number[]).includes(version)) {
    throw invalid(`columnar version ${version} is not one of ${COLUMNAR_VERSIONS.join(', ')}`);
  }
  const out = new BoundedText(limit, maxObjects);
  readValue(input, out, 0, version);
  if (input.remaining !== 0) throw invalid(`${input.remaining} bytes follow the body`);
  return out.text();
}

export { CodecError };
