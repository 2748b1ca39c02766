import { ByteWriter } from './bytes.js';
import { encodeColumn, type Leaf } from './column-encode.js';
import { writeKey } from './known-keys.js';
import { COLUMNAR_LIMITS } from './limits.js';

/**
 * A table: records (objects) transposed into columns. Each record has a shape (its keys in order,
 * nested objects as nested shapes, every other value a leaf naming its column); the distinct
 * shapes are written once, then which shape each row has, then the columns. A batch of the
 * default schema has one shape, so its key names cost nothing per record.
 */

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

interface Builder {
  columns: Map<string, number>;
  leaves: Leaf[][];
}

/** Leaf values go to their columns; the object's shape is written to `shape`. */
function walk(builder: Builder, object: Record<string, unknown>, path: string, depth: number, shape: ByteWriter): void {
  const keys = Object.keys(object);
  shape.uint(keys.length);
  for (const key of keys) {
    const value = object[key];
    const keyText = JSON.stringify(key);
    writeKey(shape, keyText);
    const at = `${path}\u0000${keyText}`;
    if (isPlainObject(value) && Object.keys(value).length > 0 && depth < COLUMNAR_LIMITS.maxShapeDepth) {
      shape.uint(0);
      walk(builder, value, at, depth + 1, shape);
      continue;
    }
    let column = builder.columns.get(at);
    if (column === undefined) {
      column = builder.leaves.length;
      builder.columns.set(at, column);
      builder.leaves.push([]);
    }
    shape.uint(column + 1);
    builder.leaves[column]!.push({ value, text: JSON.stringify(value) });
  }
}

/** A shape's bytes as a string key (one character per byte: no two shapes share one). */
function signatureOf(bytes: Uint8Array): string {
  let signature = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    signature += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return signature;
}

/** Writes `rows` (plain objects) as a table; false when a count limit is passed (send it otherwise). */
export function encodeTable(out: ByteWriter, rows: readonly Record<string, unknown>[]): boolean {
  const builder: Builder = { columns: new Map(), leaves: [] };
  const shapes = new Map<string, number>();
  const shapeBytes: Uint8Array[] = [];
  const rowShapes: number[] = [];
  for (const row of rows) {
    if (Object.keys(row).length > COLUMNAR_LIMITS.maxKeys) return false;
    const shape = new ByteWriter();
    walk(builder, row, '', 1, shape);
    const bytes = shape.result();
    const signature = signatureOf(bytes);
    let index = shapes.get(signature);
    if (index === undefined) {
      index = shapeBytes.length;
      shapes.set(signature, index);
      shapeBytes.push(bytes);
    }
    rowShapes.push(index);
  }
  if (builder.leaves.length > COLUMNAR_LIMITS.maxColumns || shapeBytes.length > COLUMNAR_LIMITS.maxShapes) return false;
  out.uint(rows.length);
  out.uint(builder.leaves.length);
  out.uint(shapeBytes.length);
  for (const bytes of shapeBytes) out.bytes(bytes);
  if (shapeBytes.length > 1) for (const index of rowShapes) out.uint(index);
  for (const leaves of builder.leaves) encodeColumn(out, leaves);
  return true;
}
