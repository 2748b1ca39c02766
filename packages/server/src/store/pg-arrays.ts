/**
 * PostgreSQL array literals built here rather than by the driver (which quotes and escapes every
 * element, numbers included): a whole column of a multi-row insert goes as ONE parameter, so the
 * statement has a fixed text whatever the row count (one prepared statement, one plan) and the
 * backend binds a handful of parameters instead of thousands.
 */

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/** `{"a","b",NULL}`: every string quoted (an element is never read as NULL or split), `\` and `"` escaped. */
export function textArray(values: readonly (string | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) out += ',';
    if (value === null || value === undefined) out += 'NULL';
    else out += `"${NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, '\\$&') : value}"`;
  }
  return `${out}}`;
}

/** `{1,2.5,NULL}`: numbers as JavaScript writes them (as the driver sends a number parameter). */
export function numberArray(values: readonly (number | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) out += ',';
    out += value === null || value === undefined ? 'NULL' : String(value);
  }
  return `${out}}`;
}

/**
 * Texts that hold no newline (JSON.stringify's output escapes every control character), joined by
 * newlines: split back by `string_to_array(?, E'\n')` with no quoting or escaping on either side.
 * As UTF-8 bytes (the driver sends a Buffer as the parameter's binary form, which for TEXT is its
 * bytes): joining a large group's records into one string cost more than stringifying them (V8
 * builds a string of a megabyte slowly), writing each into one buffer a fraction of that.
 */
export function newlineJoined(values: readonly string[]): Buffer {
  let bytes = Math.max(0, values.length - 1);
  for (const value of values) bytes += Buffer.byteLength(value);
  const out = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out[at++] = 0x0a;
    at += out.write(values[i]!, at);
  }
  return out;
}
