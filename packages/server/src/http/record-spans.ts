import { isUtf8 } from 'node:buffer';
import { attachSources, RecordSources } from '../ingest/record-source.js';

/**
 * Where the containers near the top of a JSON text start and end, as the shape scan passes them
 * (json-shape.ts): those at depth 2 (a bare array's elements, or an object body's members) and at
 * depth 3 (the elements of such a member). From them an upload's records are found by position,
 * and each keeps the text it arrived as (ingest/record-source.ts). Offsets are byte offsets in the
 * whole text; a span not yet closed ends at -1.
 *
 * At most `cap` containers are kept at each depth (a request's records and some slack), and the
 * scan tells none past its container limit: a body built of millions of `{}` costs little more
 * than the scan's count of them (bench/decode-cost.mjs). A body with more containers at depth 2
 * gives no sources (the upload is refused for its size anyway); one with more at depth 3 gives
 * none to an object body (a bare array's records hold their own objects there).
 */
export class RecordSpans {
  /** Depth 2: [start, end, 1 if an array] per container kept. */
  private readonly outer: number[] = [];
  /** Depth 3: [start, end, index of its depth-2 container] per container kept. */
  private readonly inner: number[] = [];
  /** Containers opened at each depth, kept or not. */
  private outerCount = 0;
  private innerCount = 0;

  constructor(private readonly cap: number) {}

  /** More containers opened at depth 2 than `cap`: no sources, and no more places taken. */
  full = false;
  /** More at depth 3 than `cap`: no sources for an object body (a bare array's still count). */
  private innerFull = false;

  /** Takes a container's start; false once full (the scan then stops telling). */
  open(depth: number, at: number, isArray: boolean): boolean {
    if (depth === 2) {
      if (this.outerCount++ < this.cap) this.outer.push(at, -1, isArray ? 1 : 0);
      else this.full = true;
    } else if (this.innerCount++ < this.cap) this.inner.push(at, -1, this.outerCount - 1);
    else this.innerFull = true;
    return !this.full;
  }

  /** Closes the depth's last opened container: containers at one depth open and close in turn. */
  close(depth: number, end: number): void {
    const index = (depth === 2 ? this.outerCount : this.innerCount) - 1;
    if (index >= 0 && index < this.cap) (depth === 2 ? this.outer : this.inner)[3 * index + 1] = end;
  }

  /**
   * Gives the records of `value` (the text's parsed value) their texts where their places are
   * certain: a bare array whose every element is an object (its depth-2 containers, one each, in
   * order), or an object with exactly one array among its members in the text (then that array is
   * its only array-valued member, whatever the keys) whose every element is an object. Otherwise
   * nothing: those records are written out from their values.
   */
  keepSources(value: unknown, bytes: Buffer): void {
    if (this.full) return;
    if (Array.isArray(value)) {
      if (this.outerCount !== value.length || !value.every(isRecordObject)) return;
      return keep(value, bytes, this.outer, 0);
    }
    if (!isRecordObject(value) || this.innerFull) return;
    const array = this.onlyArray();
    const records = array < 0 ? null : arrayMember(value);
    if (!records || !records.every(isRecordObject)) return;
    let first = -1;
    let count = 0;
    for (let k = 0; k < this.inner.length; k += 3) {
      if (this.inner[k + 2] !== array) continue;
      if (first < 0) first = k;
      count += 1;
    }
    // The array's elements are consecutive depth-3 containers (nothing else opens at depth 3 inside it).
    if (count === records.length) keep(records, bytes, this.inner, Math.max(first, 0));
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

/**
 * The records' spans, kept beside the body's bytes (off the JS heap): a record's text is made only
 * at its insert (record-source.ts). Bytes that are not UTF-8 were read as U+FFFD by the parser:
 * no sources then.
 */
function keep(records: unknown[], bytes: Buffer, spans: readonly number[], first: number): void {
  if (isUtf8(bytes)) attachSources(records, new RecordSources(bytes, spans, first));
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
