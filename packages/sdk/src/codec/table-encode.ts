import { ByteWriter } from './bytes.js';
import { encodeColumn } from './column-encode.js';
import { writeKey } from './known-keys.js';
import { COLUMNAR_LIMITS } from './limits.js';
import { presetOf } from './preset-shapes.js';

/**
 * A table: records (objects) transposed into columns. Each record has a shape (its keys in order,
 * nested objects as nested shapes, every other value a leaf naming its column); the distinct
 * shapes are written once, then which shape each row has, then the columns. A batch of the
 * default schema has one shape, so its key names cost nothing per record.
 */

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const own = Object.prototype.hasOwnProperty;

/** Whether an object has an own enumerable key, without listing its keys (this runs per row). */
function hasKeys(object: Record<string, unknown>): boolean {
  for (const key in object) if (own.call(object, key)) return true;
  return false;
}

/** A nested object with keys gets a nested shape; anything else (even `{}`) is a leaf. */
const nests = (value: unknown, depth: number): value is Record<string, unknown> =>
  isPlainObject(value) && depth < COLUMNAR_LIMITS.maxShapeDepth && hasKeys(value);

interface Shape {
  keys: string[];
  /** A column index for a leaf, a nested shape for a nested object. */
  children: (number | Shape)[];
}

/** Whether `object` has exactly `shape` (same keys in the same order, same nesting). */
function matches(shape: Shape, object: Record<string, unknown>, depth: number): boolean {
  // for-in walks the same keys in the same order as Object.keys, without building the array
  // (inherited keys, which JSON.parse never makes, fail the match: the row gets its own shape).
  let i = 0;
  for (const key in object) {
    if (i >= shape.keys.length || key !== shape.keys[i] || !own.call(object, key)) return false;
    const child = shape.children[i]!;
    const value = object[key];
    if (
      typeof child === 'number'
        ? nests(value, depth + 1)
        : !nests(value, depth + 1) || !matches(child, value, depth + 1)
    ) {
      return false;
    }
    i++;
  }
  return i === shape.keys.length;
}

function collect(shape: Shape, object: Record<string, unknown>, columns: unknown[][]): void {
  for (let i = 0; i < shape.keys.length; i++) {
    const child = shape.children[i]!;
    const value = object[shape.keys[i]!];
    if (typeof child === 'number') columns[child]!.push(value);
    else collect(child, value as Record<string, unknown>, columns);
  }
}

/** A new shape for `object`; its leaves get columns by path, shared with earlier shapes. */
function shapeOf(object: Record<string, unknown>, path: string, depth: number, paths: Map<string, number>): Shape {
  const shape: Shape = { keys: Object.keys(object), children: [] };
  for (const key of shape.keys) {
    const value = object[key];
    const at = `${path}\u0000${key}`;
    if (nests(value, depth + 1)) {
      shape.children.push(shapeOf(value, at, depth + 1, paths));
      continue;
    }
    let column = paths.get(at);
    if (column === undefined) paths.set(at, (column = paths.size));
    shape.children.push(column);
  }
  return shape;
}

function writeShape(out: ByteWriter, shape: Shape, version: number): void {
  out.uint(shape.keys.length);
  for (let i = 0; i < shape.keys.length; i++) {
    writeKey(out, JSON.stringify(shape.keys[i]), version);
    const child = shape.children[i]!;
    if (typeof child === 'number') out.uint(child + 1);
    else {
      out.uint(0);
      writeShape(out, child, version);
    }
  }
}

/** Writes `rows` (plain objects) as a table; false when a count limit is passed (send it otherwise). */
export function encodeTable(out: ByteWriter, rows: readonly Record<string, unknown>[], version: number): boolean {
  const paths = new Map<string, number>();
  const shapes: Shape[] = [];
  const rowShapes: number[] = [];
  const columns: unknown[][] = [];
  let last = -1;
  for (const row of rows) {
    let index = last >= 0 && matches(shapes[last]!, row, 1) ? last : shapes.findIndex((s) => matches(s, row, 1));
    if (index < 0) {
      if (shapes.length >= COLUMNAR_LIMITS.maxShapes || Object.keys(row).length > COLUMNAR_LIMITS.maxKeys) return false;
      shapes.push(shapeOf(row, '', 1, paths));
      index = shapes.length - 1;
      while (columns.length < paths.size) columns.push([]);
      if (paths.size > COLUMNAR_LIMITS.maxColumns) return false;
    }
    collect(shapes[index]!, row, columns);
    rowShapes.push((last = index));
  }
  out.uint(rows.length);
  out.uint(columns.length);
  out.uint(shapes.length);
  shapes.forEach((shape, i) => {
    if (version < 2) return writeShape(out, shape, version);
    // Version 2: each shape is a preset number, or 0 and the shape. A preset's leaves are columns
    // 0, 1, 2 ...: the first shape's, as shapeOf numbers them.
    const written = new ByteWriter();
    writeShape(written, shape, version);
    const bytes = written.result();
    const preset = i === 0 ? presetOf(bytes, version) : 0;
    out.uint(preset);
    if (preset === 0) out.bytes(bytes);
  });
  if (shapes.length > 1) for (const index of rowShapes) out.uint(index);
  for (const values of columns) encodeColumn(out, values, version);
  return true;
}
