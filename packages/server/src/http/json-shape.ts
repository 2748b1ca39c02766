import { HttpError } from '../errors.js';
import { INPUT_LIMITS } from '../ingest/validation.js';
import { RecordSpans } from './record-spans.js';

/**
 * Objects and arrays, and values, a request may hold per record it may hold: far above what any
 * client sends (an SDK record of the default schema is 5 objects and about 25 values; an Overland
 * feature 4 containers), so only a body built to be expensive meets them.
 */
export const CONTAINERS_PER_RECORD = 16;
export const VALUES_PER_RECORD = 64;
/** Room for what surrounds the records (params, a device object, extras). */
const SLACK = 4096;
/** Containers beside the records at the depths record-spans.ts keeps (params, a device object). */
const SLACK_RECORDS = 64;

/** What JSON text a request may hold before it is parsed. */
export interface JsonShapeLimits {
  maxDepth: number;
  /** Objects and arrays. */
  maxContainers: number;
  /** Members and elements: separating commas, plus one per container. */
  maxValues: number;
  /** Records (record-spans.ts keeps the places of this many containers, and some). */
  maxRecords: number;
}

/** The limits of a server taking at most `maxRecords` records a request. */
export function jsonShapeLimits(maxRecords: number): JsonShapeLimits {
  return {
    maxDepth: INPUT_LIMITS.maxDepth,
    maxContainers: maxRecords * CONTAINERS_PER_RECORD + SLACK,
    maxValues: maxRecords * VALUES_PER_RECORD + SLACK,
    maxRecords,
  };
}

/** What a byte outside a string means to the scan (every other byte means nothing to it). */
const PLAIN = 0;
const QUOTE = 1;
const COMMA = 2;
const OPEN = 3;
const CLOSE = 4;
const OUTSIDE = new Uint8Array(256);
OUTSIDE[0x22] = QUOTE;
OUTSIDE[0x2c] = COMMA;
OUTSIDE[0x7b] = OPEN; // {
OUTSIDE[0x5b] = OPEN; // [
OUTSIDE[0x7d] = CLOSE; // }
OUTSIDE[0x5d] = CLOSE; // ]
/**
 * Bytes the scanning loop reads in one call. Fed a whole upload at once, the loop ran long enough on
 * the server's first upload for V8 to compile it mid-loop (on-stack replacement) before the code
 * after the loop had ever run; that compiled loop was kept and entered again on every later upload,
 * only to be thrown out at the loop's end for want of type feedback there: one deoptimization per
 * request (V8 11, Node 20), about three times JSON.parse's CPU, the largest stage of a batched
 * SQLite upload (issue 43). In short slices the loop's end runs often before it is compiled whole.
 */
const SLICE = 2048;
const QUOTE_BYTE = 0x22;
const BACKSLASH_BYTE = 0x5c;
const OPEN_ARRAY_BYTE = 0x5b;

/**
 * Counts the containers, values and nesting of JSON text as its bytes arrive, outside strings,
 * and refuses (throws) the moment one passes its limit: what JSON.parse would build is bounded
 * before it builds anything. JSON.parse of 5 MiB of `[{},{},...]` builds 1.7 million objects
 * (about 1.5 s of CPU with what follows); this scan reads the same bytes in a few milliseconds,
 * and on a decoded body stops the decoder at the first chunk past a limit. Byte-wise on UTF-8 is
 * exact: `"`, `\`, `{`, `[`, `]`, `}` and `,` never occur inside a multi-byte sequence.
 * Invalid JSON is not this scan's to find: JSON.parse refuses it afterwards.
 *
 * It reads every byte of every upload, so its loops are lean (issue 43: it cost about half of
 * JSON.parse): a string's bytes are passed over by a loop that looks only for its end or an
 * escape, and outside strings one table lookup tells the few bytes that count from the rest.
 * The loops see at most SLICE bytes a call (see there).
 *
 * On the way it tells whether the text may name a key `__proto__` or `constructor` (prototype
 * poisoning, which the parser refuses): only a string of exactly that text, or one holding an
 * escape (`\u005f_proto__`), or one it did not see whole, can. A text it finds clean needs no
 * second pass looking for them (the parser's regular expressions, issue 43).
 */
export class JsonShapeScan {
  private depth = 0;
  private containers = 0;
  private values = 0;
  private inString = false;
  /** The string's last byte so far was a backslash: the next byte is escaped. */
  private escaped = false;
  /** Where the open string's text starts in the bytes being scanned; -1: in bytes fed before. */
  private stringStart = -1;
  /**
   * Some string may spell `__proto__` or `constructor` (see above): the text must be parsed with
   * the check for them. False: JSON.parse alone builds the same value the checked parse would.
   */
  suspect = false;
  /** Bytes fed before the slice being scanned (the spans' offsets are in the whole text). */
  private fed = 0;
  /** The containers at depths 2 and 3, where the text's records are (record-spans.ts). */
  readonly spans: RecordSpans;

  constructor(private readonly limits: JsonShapeLimits) {
    this.spans = new RecordSpans(limits.maxRecords + SLACK_RECORDS);
  }

  /** Scans the next bytes of the text; throws 400 TOO_DEEP or 413 TOO_MANY_VALUES. */
  feed(bytes: Uint8Array): void {
    const n = bytes.length;
    // A string open at the last chunk's end started there: its length here says nothing.
    this.stringStart = -1;
    for (let from = 0; from < n; from += SLICE) this.scan(bytes, from, Math.min(n, from + SLICE));
    this.fed += n;
    // Checked once a chunk: the chunk is bounded (a stream's), and the loop stays lean.
    if (this.containers > this.limits.maxContainers || this.values + this.containers > this.limits.maxValues) {
      throw tooManyValues(this.limits);
    }
  }

  /** Scans bytes[from, to): the counts, nesting and string state carried over in the fields. */
  private scan(bytes: Uint8Array, from: number, n: number): void {
    const { maxDepth, maxContainers } = this.limits;
    const { spans, fed } = this;
    // Once more containers opened at depth 2 than a request's records, or more containers in all
    // than the limit (the body is refused at the chunk's end), the scan tells record-spans.ts no
    // more: the rest costs no call, however many millions of `{}` the body holds.
    let placing = !spans.full;
    let { depth, containers, values, inString, escaped, stringStart } = this;
    let i = from;
    while (i < n) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
        }
        for (; i < n; i++) {
          const byte = bytes[i]!;
          if (byte === QUOTE_BYTE) {
            inString = false;
            const length = i - stringStart;
            if (stringStart < 0 || ((length === 9 || length === 11) && poisonKey(bytes, stringStart, length))) {
              this.suspect = true;
            }
            i++;
            break;
          }
          if (byte === BACKSLASH_BYTE) {
            escaped = true;
            this.suspect = true;
            i++;
            break;
          }
        }
        continue;
      }
      for (; i < n; i++) {
        const kind = OUTSIDE[bytes[i]!]!;
        if (kind === PLAIN) continue;
        if (kind === QUOTE) {
          inString = true;
          stringStart = ++i;
          break;
        }
        if (kind === COMMA) values++;
        else if (kind === OPEN) {
          containers++;
          if (++depth > maxDepth) throw tooDeep(maxDepth);
          if (placing && (depth === 2 || depth === 3) && containers <= maxContainers)
            placing = spans.open(depth, fed + i, bytes[i] === OPEN_ARRAY_BYTE);
        } else {
          if (placing && (depth === 2 || depth === 3) && containers <= maxContainers) spans.close(depth, fed + i + 1);
          depth--;
        }
      }
    }
    this.depth = depth;
    this.containers = containers;
    this.values = values;
    this.inString = inString;
    this.escaped = escaped;
    this.stringStart = stringStart;
  }
}

const PROTO = Buffer.from('__proto__');
const CONSTRUCTOR = Buffer.from('constructor');

/** Whether bytes[start, start + length) are `__proto__` or `constructor` (length 9 or 11). */
function poisonKey(bytes: Uint8Array, start: number, length: number): boolean {
  const word = length === 9 ? PROTO : CONSTRUCTOR;
  if (bytes[start] !== word[0]) return false;
  for (let k = 1; k < length; k++) if (bytes[start + k] !== word[k]) return false;
  return true;
}

export const tooDeep = (maxDepth: number): HttpError =>
  new HttpError(400, 'TOO_DEEP', `The body nests deeper than ${maxDepth} levels of arrays and objects`);

export const tooManyValues = (limits: JsonShapeLimits): HttpError =>
  new HttpError(
    413,
    'TOO_MANY_VALUES',
    `The body holds more than ${limits.maxContainers} objects and arrays or ${limits.maxValues} values; send fewer records per request`,
  );
