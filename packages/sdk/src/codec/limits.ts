import { CodecError, invalid } from './bytes.js';

/** Count and depth limits every decoder applies, whatever the size limit (docs/wire-format.md). */
export const COLUMNAR_LIMITS = {
  /** Nesting of objects inside one record's shape. */
  maxShapeDepth: 32,
  /** Distinct columns (leaf paths) and distinct shapes in one table. */
  maxColumns: 4096,
  maxShapes: 4096,
  /** Keys of one object, in a shape or at the top level. */
  maxKeys: 4096,
} as const;

/**
 * The decoded text, refused the moment it grows past `limit` characters: what the codec inflates
 * to is bounded as it decodes, as a gzip body is by its inflated size. Also the objects and arrays
 * its tables will hold, refused past `maxObjects` from the counts a table declares, before any row
 * is built: a server that takes at most so many records a request says so with it.
 */
export class BoundedText {
  private written = '';
  length = 0;
  private objects = 0;

  constructor(
    readonly limit: number,
    readonly maxObjects = Infinity,
  ) {}

  /** Refuses up front a table whose rows would hold more than `maxObjects` objects in all. */
  reserveObjects(count: number): void {
    this.objects += count;
    if (this.objects > this.maxObjects) {
      throw new CodecError(
        'TOO_MANY_VALUES',
        `The columnar body holds more than ${this.maxObjects} objects and arrays; send fewer records per request`,
      );
    }
  }

  /** Refuses up front what must produce at least `size` more characters. */
  reserve(size: number): void {
    if (this.length + size > this.limit) throw tooLarge(this.limit);
  }

  push(text: string): void {
    this.length += text.length;
    if (this.length > this.limit) throw tooLarge(this.limit);
    this.written += text;
  }

  text(): string {
    return this.written;
  }
}

const tooLarge = (limit: number) =>
  new CodecError('BODY_TOO_LARGE', `The columnar body decodes to more than the limit of ${limit} bytes`);

export function checkCount(value: number, max: number, what: string): number {
  if (value > max) throw invalid(`${what} ${value} is over the limit of ${max}`);
  return value;
}
