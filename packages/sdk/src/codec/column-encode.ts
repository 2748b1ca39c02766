import { type ByteWriter } from './bytes.js';
import { fractionDigits, MAX_SCALE, toScaled } from './decimal.js';
import { readIsoMillis, uuidBytes, writeUuid } from './leaf-forms.js';
import { writeInts } from './int-runs.js';

/** One leaf of a record: its value as parsed and its exact JSON text. */
export interface Leaf {
  value: unknown;
  text: string;
}

/** How a column's values are written (docs/wire-format.md, "Columns"). */
export const ColumnMode = { Verbatim: 0, Dictionary: 1, Decimal: 2, Time: 3, Uuid: 4 } as const;

/** Values that do not fit a column's form: their positions and exact texts, written first. */
function writeExceptions(out: ByteWriter, leaves: readonly Leaf[], fits: readonly boolean[]): void {
  const positions = fits.flatMap((fit, i) => (fit ? [] : [i]));
  out.uint(positions.length);
  let previous = -1;
  for (const i of positions) {
    out.uint(i - previous - 1);
    out.text(leaves[i]!.text);
    previous = i;
  }
}

/** The scale that fits nine values in ten (the others are exceptions), at most MAX_SCALE. */
function chooseScale(leaves: readonly Leaf[]): number {
  const digits = leaves
    .map((leaf) => (typeof leaf.value === 'number' ? fractionDigits(leaf.text) : -1))
    .filter((d) => d >= 0 && d <= MAX_SCALE)
    .sort((a, b) => a - b);
  return digits.length === 0 ? 0 : digits[Math.floor((digits.length - 1) * 0.9)]!;
}

function writeScaled(out: ByteWriter, leaves: readonly Leaf[], scaled: (leaf: Leaf) => number | null): void {
  const values = leaves.map((leaf) => scaled(leaf));
  writeExceptions(
    out,
    leaves,
    values.map((v) => v !== null),
  );
  writeInts(
    out,
    values.filter((v): v is number => v !== null),
  );
}

function writeUuids(out: ByteWriter, leaves: readonly Leaf[]): void {
  const all = leaves.map((leaf) => uuidBytes(leaf.value));
  writeExceptions(
    out,
    leaves,
    all.map((b) => b !== null),
  );
  let previous: Uint8Array = new Uint8Array(16);
  for (const bytes of all) {
    if (!bytes) continue;
    writeUuid(out, bytes, previous);
    previous = bytes;
  }
}

function writeDictionary(out: ByteWriter, leaves: readonly Leaf[], entries: Map<string, number>): void {
  out.uint(entries.size);
  for (const text of entries.keys()) out.text(text);
  // One entry: every value is it, no index follows (the many constant columns of a batch).
  if (entries.size > 1) for (const leaf of leaves) out.uint(entries.get(leaf.text)!);
}

/** Writes one column: the form most of its values fit, with the rest kept as exact JSON text. */
export function encodeColumn(out: ByteWriter, leaves: readonly Leaf[]): void {
  const half = leaves.length / 2;
  const count = (test: (leaf: Leaf) => boolean) => leaves.reduce((n, leaf) => (test(leaf) ? n + 1 : n), 0);
  if (count((leaf) => typeof leaf.value === 'number') >= half) {
    const scale = chooseScale(leaves);
    out.byte(ColumnMode.Decimal);
    out.uint(scale);
    return writeScaled(out, leaves, (leaf) => (typeof leaf.value === 'number' ? toScaled(leaf.text, scale) : null));
  }
  if (count((leaf) => readIsoMillis(leaf.value) !== null) >= half) {
    out.byte(ColumnMode.Time);
    return writeScaled(out, leaves, (leaf) => readIsoMillis(leaf.value));
  }
  if (count((leaf) => uuidBytes(leaf.value) !== null) >= half) {
    out.byte(ColumnMode.Uuid);
    return writeUuids(out, leaves);
  }
  const entries = new Map<string, number>();
  for (const leaf of leaves) if (!entries.has(leaf.text)) entries.set(leaf.text, entries.size);
  if (leaves.length > 1 && entries.size <= half) {
    out.byte(ColumnMode.Dictionary);
    return writeDictionary(out, leaves, entries);
  }
  out.byte(ColumnMode.Verbatim);
  for (const leaf of leaves) out.text(leaf.text);
}
