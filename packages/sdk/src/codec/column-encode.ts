import { type ByteWriter } from './bytes.js';
import { scaledFast, MAX_SCALE } from './decimal.js';
import { readIsoMillis, uuidBytes, writeUuid } from './leaf-forms.js';
import { writeInts } from './int-runs.js';

/** How a column's values are written (docs/wire-format.md, "Columns"). */
export const ColumnMode = { Verbatim: 0, Dictionary: 1, Decimal: 2, Time: 3, Uuid: 4 } as const;

/** Values that do not fit a column's form: their positions and exact texts, written first. */
function writeExceptions(out: ByteWriter, values: readonly unknown[], fits: readonly unknown[]): void {
  let count = 0;
  for (const fit of fits) if (fit === null) count++;
  out.uint(count);
  let previous = -1;
  for (let i = 0; i < fits.length; i++) {
    if (fits[i] !== null) continue;
    out.uint(i - previous - 1);
    out.text(JSON.stringify(values[i]));
    previous = i;
  }
}

const exactAt = (value: number, scale: number): boolean => {
  const power = POWERS[scale]!;
  return Math.round(value * power) / power === value;
};
const POWERS = Array.from({ length: MAX_SCALE + 1 }, (_, i) => 10 ** i);

/**
 * Digits after the point of a number's shortest text (JSON.stringify's), up to MAX_SCALE + 1.
 * `hint`, the previous number's, is tried first: a column's numbers mostly have the same.
 */
function decimals(value: number, hint: number): number {
  if (hint <= MAX_SCALE && exactAt(value, hint) && (hint === 0 || !exactAt(value, hint - 1))) return hint;
  for (let scale = 0; scale <= MAX_SCALE; scale++) if (exactAt(value, scale)) return scale;
  return MAX_SCALE + 1;
}

/**
 * The scale: the most digits any number has, unless that is more than 3 digits above what nine in
 * ten have (a 0.1 + 0.2 among whole metres); the few numbers it leaves out are exceptions.
 */
function chooseScale(values: readonly unknown[]): number {
  const counts = new Array<number>(MAX_SCALE + 1).fill(0);
  let total = 0;
  let hint = 0;
  for (const value of values) {
    if (typeof value !== 'number') continue;
    hint = decimals(value, hint);
    if (hint <= MAX_SCALE) {
      counts[hint]!++;
      total++;
    }
  }
  if (total === 0) return 0;
  // The 90th percentile (the value at sorted index floor((total - 1) * 0.9)) and the most.
  const at = Math.floor((total - 1) * 0.9);
  let ninety = -1;
  let most = 0;
  for (let scale = 0, seen = 0; scale <= MAX_SCALE; scale++) {
    seen += counts[scale]!;
    if (ninety < 0 && seen > at) ninety = scale;
    if (counts[scale]! > 0) most = scale;
  }
  return most - ninety <= 3 ? most : ninety;
}

function writeScaled(
  out: ByteWriter,
  values: readonly unknown[],
  scaled: (value: unknown) => number | null,
  version: number,
): void {
  const fits = values.map(scaled);
  writeExceptions(out, values, fits);
  writeInts(
    out,
    fits.filter((v): v is number => v !== null),
    version,
  );
}

function writeUuids(out: ByteWriter, values: readonly unknown[]): void {
  const all = values.map(uuidBytes);
  writeExceptions(out, values, all);
  let previous: Uint8Array = new Uint8Array(16);
  for (const bytes of all) {
    if (!bytes) continue;
    writeUuid(out, bytes, previous);
    previous = bytes;
  }
}

/** Dictionary when values repeat (half or fewer distinct), else each value's JSON text. */
function writeTexts(out: ByteWriter, values: readonly unknown[]): void {
  const texts = values.map((value) =>
    value === true ? 'true' : value === false ? 'false' : value === null ? 'null' : JSON.stringify(value),
  );
  const entries = new Map<string, number>();
  for (const text of texts) if (!entries.has(text)) entries.set(text, entries.size);
  if (values.length > 1 && entries.size <= values.length / 2) {
    out.byte(ColumnMode.Dictionary);
    out.uint(entries.size);
    for (const text of entries.keys()) out.text(text);
    // One entry: every value is it, no index follows (the many constant columns of a batch).
    if (entries.size > 1) for (const text of texts) out.uint(entries.get(text)!);
    return;
  }
  out.byte(ColumnMode.Verbatim);
  for (const text of texts) out.text(text);
}

/**
 * Writes one column in the form its first value has (a decimal number, an ISO timestamp, a uuid;
 * else texts), the values that do not fit kept as exact JSON text; `version`: the coding's (it
 * decides the difference orders, int-runs.ts).
 */
export function encodeColumn(out: ByteWriter, values: readonly unknown[], version: number): void {
  const first = values[0];
  if (typeof first === 'number') {
    const scale = chooseScale(values);
    const power = 10 ** scale;
    out.byte(ColumnMode.Decimal);
    out.uint(scale);
    return writeScaled(out, values, (value) => (typeof value === 'number' ? scaledFast(value, power) : null), version);
  }
  if (readIsoMillis(first) !== null) {
    out.byte(ColumnMode.Time);
    return writeScaled(out, values, readIsoMillis, version);
  }
  if (uuidBytes(first) !== null) {
    out.byte(ColumnMode.Uuid);
    return writeUuids(out, values);
  }
  writeTexts(out, values);
}
