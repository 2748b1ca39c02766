import { isUtf8 } from 'node:buffer';
import { attachSources } from '../ingest/record-source.js';

/**
 * Where the containers near the top of a JSON text start and end, as the shape scan passes them
 * (json-shape.ts): those at depth 2 (a bare array's elements, or an object body's members) and at
 * depth 3 (the elements of such a member). From them an upload's records are found by position,
 * and each keeps the text it arrived as (ingest/record-source.ts). Offsets are byte offsets in the
 * whole text; a span not yet closed ends at -1.
 */
export class RecordSpans {
  /** Depth 2: [start, end, 1 if an array] per container. */
  private readonly outer: number[] = [];
  /** Depth 3: [start, end, index of its depth-2 container] per container. */
  private readonly inner: number[] = [];

  open(depth: number, at: number, isArray: boolean): void {
    if (depth === 2) this.outer.push(at, -1, isArray ? 1 : 0);
    else this.inner.push(at, -1, this.outer.length / 3 - 1);
  }

  close(depth: number, end: number): void {
    const spans = depth === 2 ? this.outer : this.inner;
    if (spans.length > 0) spans[spans.length - 2] = end;
  }

  /**
   * Gives each record of `value` (the text's parsed value) its text, where its place is certain:
   * a bare array whose every element is an object (its depth-2 containers, one each, in order), or
   * an object with exactly one array among its members in the text (then that array is its only
   * array-valued member, whatever the keys), whose every element is an object. Otherwise nothing:
   * those records are written out from their values.
   */
  keepSources(value: unknown, bytes: Buffer): void {
    // Each source is a view of the body's bytes (off the JS heap: nothing to copy, nothing for the
    // young generation to carry while the upload waits for its commit). Bytes that are not UTF-8
    // were read as U+FFFD by the parser: those records are written out from their values instead.
    if (!isUtf8(bytes)) return;
    const source = (start: number, end: number): Buffer => bytes.subarray(start, end);
    if (Array.isArray(value)) {
      if (this.outer.length / 3 !== value.length || !value.every(isRecordObject)) return;
      attachSources(
        value,
        value.map((_, i) => source(this.outer[3 * i]!, this.outer[3 * i + 1]!)),
      );
      return;
    }
    if (!isRecordObject(value)) return;
    const array = this.onlyArray();
    if (array < 0) return;
    const records = arrayMember(value);
    if (!records || !records.every(isRecordObject)) return;
    const spans: number[] = [];
    for (let k = 0; k < this.inner.length; k += 3) if (this.inner[k + 2] === array) spans.push(k);
    if (spans.length !== records.length) return;
    attachSources(
      records,
      spans.map((k) => source(this.inner[k]!, this.inner[k + 1]!)),
    );
  }

  /** The index of the one depth-2 array, or -1 where there are none or several. */
  private onlyArray(): number {
    let found = -1;
    for (let k = 0; k < this.outer.length; k += 3) {
      if (this.outer[k + 2] !== 1) continue;
      if (found >= 0) return -1;
      found = k / 3;
    }
    return found;
  }
}

const isRecordObject = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The one array-valued member of an object, or null. */
function arrayMember(body: object): unknown[] | null {
  let found: unknown[] | null = null;
  for (const member of Object.values(body)) {
    if (!Array.isArray(member)) continue;
    if (found) return null;
    found = member;
  }
  return found;
}
