import { ByteReader, invalid } from './bytes.js';
import { decodeColumn } from './column-decode.js';
import { readKey } from './known-keys.js';
import { type BoundedText, checkCount, COLUMNAR_LIMITS } from './limits.js';
import { PRESET_SHAPES, presetsIn } from './preset-shapes.js';

/** A shape as read: each key as written (`{"key":` first, then `,"key":`), and a column index or a nested shape. */
interface Shape {
  keys: string[];
  children: (number | Shape)[];
  /** The fewest characters a row of this shape can decode to ({} , : and one per leaf). */
  minimum: number;
  /** How many values of each column one row of this shape takes. */
  uses: number[];
  /** Objects one row of this shape is (itself and the nested shapes). */
  objects: number;
}

function readShape(input: ByteReader, columns: number, depth: number, version: number): Shape {
  if (depth > COLUMNAR_LIMITS.maxShapeDepth) throw invalid(`shapes nest deeper than ${COLUMNAR_LIMITS.maxShapeDepth}`);
  const count = checkCount(input.uint(), COLUMNAR_LIMITS.maxKeys, 'a shape key count');
  const shape: Shape = { keys: [], children: [], minimum: 1 + Math.max(count, 1), uses: [], objects: 1 };
  for (let i = 0; i < count; i++) {
    const key = readKey(input, version);
    const ref = input.bounded(columns, 'a column reference');
    shape.keys.push(`${i === 0 ? '{' : ','}${key}:`);
    shape.minimum += key.length + 1;
    if (ref === 0) {
      const child = readShape(input, columns, depth + 1, version);
      shape.children.push(child);
      shape.minimum += child.minimum;
      shape.objects += child.objects;
      child.uses.forEach((n, c) => (shape.uses[c] = (shape.uses[c] ?? 0) + n));
    } else {
      shape.children.push(ref - 1);
      shape.minimum += 1;
      shape.uses[ref - 1] = (shape.uses[ref - 1] ?? 0) + 1;
    }
  }
  return shape;
}

/** A table's shape: written out, or from version 2 a preset number (0: written out follows). */
function readTopShape(input: ByteReader, columns: number, version: number): Shape {
  if (version < 2) return readShape(input, columns, 1, version);
  const preset = input.bounded(presetsIn(version), 'a preset shape');
  if (preset === 0) return readShape(input, columns, 1, version);
  // The preset's bytes, read as if written here: its column references are checked the same way.
  const bytes = new ByteReader(PRESET_SHAPES[preset - 1]!);
  return readShape(bytes, columns, 1, version);
}

function writeRow(shape: Shape, columns: string[][], cursors: number[], out: BoundedText): void {
  const { keys, children } = shape;
  if (keys.length === 0) return out.push('{}');
  for (let i = 0; i < keys.length; i++) {
    // keys[i] is already `{"key":` or `,"key":` (see readShape).
    const child = children[i]!;
    if (typeof child === 'number') out.push(keys[i]! + columns[child]![cursors[child]!++]!);
    else {
      out.push(keys[i]!);
      writeRow(child, columns, cursors, out);
    }
  }
  out.push('}');
}

/**
 * Reads a table and writes its rows, `[...]` or a single object. Before any column is read, the
 * least the rows can decode to is checked against the size limit, and the objects they hold
 * against the object limit (each row is at least one), so a few bytes that claim a million rows
 * are refused without allocating them.
 */
export function decodeTable(input: ByteReader, out: BoundedText, asArray: boolean, version: number): void {
  const rows = input.uint();
  out.reserve(asArray ? rows * 3 + 1 : 2);
  out.reserveObjects(rows + (asArray ? 1 : 0));
  if (!asArray && rows !== 1) throw invalid('a single-record table must have exactly one row');
  const columnCount = checkCount(input.uint(), COLUMNAR_LIMITS.maxColumns, 'a column count');
  const shapeCount = checkCount(input.uint(), Math.min(COLUMNAR_LIMITS.maxShapes, rows), 'a shape count');
  if (rows > 0 && shapeCount === 0) throw invalid('a table with rows has no shape');
  const shapes = Array.from({ length: shapeCount }, () => readTopShape(input, columnCount, version));
  const rowShapes =
    shapeCount > 1 ? Array.from({ length: rows }, () => shapes[input.bounded(shapeCount - 1, 'a shape index')]!) : null;
  const counts = new Array<number>(columnCount).fill(0);
  let minimum = 0;
  let nested = 0;
  for (let r = 0; r < rows; r++) {
    const shape = rowShapes ? rowShapes[r]! : shapes[0]!;
    minimum += shape.minimum + 1;
    nested += shape.objects - 1;
    if (out.length + minimum > out.limit) out.reserve(minimum);
  }
  out.reserveObjects(nested);
  const perShape = new Map<Shape, number>();
  for (let r = 0; r < rows; r++) {
    const shape = rowShapes ? rowShapes[r]! : shapes[0]!;
    perShape.set(shape, (perShape.get(shape) ?? 0) + 1);
  }
  for (const [shape, times] of perShape) shape.uses.forEach((n, c) => (counts[c]! += n * times));
  const columns = counts.map((count) => decodeColumn(input, count, version));
  const cursors = new Array<number>(columnCount).fill(0);
  if (asArray) out.push('[');
  for (let r = 0; r < rows; r++) {
    if (r > 0) out.push(',');
    writeRow(rowShapes ? rowShapes[r]! : shapes[0]!, columns, cursors, out);
  }
  if (asArray) out.push(']');
}
