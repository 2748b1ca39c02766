/**
 * PostgreSQL arrays for one-parameter-per-column inserts (insert-with-totals.ts): a whole column of
 * a multi-row insert goes as ONE parameter, so the statement has a fixed text whatever the row count
 * (one prepared statement, one plan) and the backend binds a handful of parameters instead of
 * thousands. Each goes in PostgreSQL's binary array format (the driver sends a Buffer parameter as
 * binary): no number written as text here and parsed back there, no quoting, escaping or scanning
 * of the strings on either side; a text element is its UTF-8 bytes.
 */

const OID = { int4: 23, int8: 20, float8: 701, text: 25 } as const;
/** ndim, flags (has nulls), element type, then one dimension's size and lower bound. */
const HEADER_BYTES = 20;
const TWO_32 = 2 ** 32;

function header(bytes: number, count: number, hasNull: boolean, oid: number): Buffer {
  const out = Buffer.allocUnsafe(count === 0 ? 12 : bytes);
  out.writeInt32BE(count === 0 ? 0 : 1, 0);
  out.writeInt32BE(hasNull ? 1 : 0, 4);
  out.writeInt32BE(oid, 8);
  if (count > 0) {
    out.writeInt32BE(count, 12);
    out.writeInt32BE(1, 16);
  }
  return out;
}

/**
 * One array: each element a length (-1 for NULL) then its bytes. `byteLength` sizes the buffer
 * first; `write` writes an element at `at` and returns the bytes it wrote.
 */
function binaryArray<T>(
  values: readonly (T | null)[],
  oid: number,
  byteLength: (value: T) => number,
  write: (out: Buffer, value: T, at: number) => number,
): Buffer {
  let bytes = HEADER_BYTES + values.length * 4;
  let hasNull = false;
  for (const value of values) {
    if (value === null) hasNull = true;
    else bytes += byteLength(value);
  }
  const out = header(bytes, values.length, hasNull, oid);
  let at = HEADER_BYTES;
  for (const value of values) {
    const length = value === null ? -1 : write(out, value, at + 4);
    out.writeInt32BE(length, at);
    at += 4 + Math.max(length, 0);
  }
  return out;
}

/** Numbers of one width: 4 or 8 bytes each. */
const fixedWidth = (
  values: readonly (number | null)[],
  oid: number,
  width: number,
  write: (out: Buffer, value: number, at: number) => void,
): Buffer =>
  binaryArray(
    values,
    oid,
    () => width,
    (out, value, at) => (write(out, value, at), width),
  );

/** `text[]`: each string's UTF-8 bytes as they are; an element given as bytes (valid UTF-8) is copied. */
export const textArray = (values: readonly (string | Buffer | null)[]): Buffer =>
  binaryArray(
    values,
    OID.text,
    (value) => (typeof value === 'string' ? Buffer.byteLength(value) : value.length),
    (out, value, at) => (typeof value === 'string' ? out.write(value, at) : value.copy(out, at)),
  );

/** `double precision[]`. */
export const float8Array = (values: readonly (number | null)[]): Buffer =>
  fixedWidth(values, OID.float8, 8, (out, value, at) => out.writeDoubleBE(value, at));

/** `{1,NULL}` as text: what the driver would send; PostgreSQL refuses what is not an integer, as before. */
const asText = (values: readonly (number | null)[]): string =>
  `{${values.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`;

/** `bigint[]` (as text when a value is not a safe integer, so PostgreSQL refuses it as it would a parameter). */
export function int8Array(values: readonly (number | null)[]): Buffer | string {
  for (const value of values) if (value !== null && !Number.isSafeInteger(value)) return asText(values);
  return fixedWidth(values, OID.int8, 8, (out, value, at) => {
    const high = Math.floor(value / TWO_32);
    out.writeInt32BE(high, at);
    out.writeUInt32BE(value - high * TWO_32, at + 4);
  });
}

/** `integer[]` (as text when a value is not a 32-bit integer, as int8Array). */
export function int4Array(values: readonly (number | null)[]): Buffer | string {
  for (const value of values) if (value !== null && (value | 0) !== value) return asText(values);
  return fixedWidth(values, OID.int4, 4, (out, value, at) => out.writeInt32BE(value, at));
}
