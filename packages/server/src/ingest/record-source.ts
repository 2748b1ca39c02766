/**
 * The text each record of an upload arrived as, kept from the body's JSON (http/record-spans.ts)
 * so that the stored `record` column is that text rather than the record written out again:
 * JSON.stringify of every record cost about a sixth of the server's main-thread CPU on a batched
 * SQLite upload (issue 43), and the text as sent is the truer copy (numbers keep their digits). A
 * record has a source only where its text is exactly its parsed value: a JSON body parsed by
 * JSON.parse (no escape in any string) whose records are found by position.
 *
 * The sources ride on the parsed array of records under a symbol (invisible to JSON and to keys);
 * extract.ts hands each record the body's sources and its index in them, and normalize.ts the
 * stored record. Nothing is made of a record's text until the insert: SQLite decodes it to a
 * string there, PostgreSQL copies its bytes (a view of the body's buffer) into the column's array
 * (pg-arrays.ts). A view or a string per record made up front would live in the young generation
 * until the group's commit, and be copied and promoted by every scavenge meanwhile (issue 43).
 * Nothing changes a record after it is parsed (a translator makes a new one, without a source).
 */
const SOURCES = Symbol('record sources');

/** The records' spans in the body's bytes: record i is bytes [spans[first + 3i], spans[first + 3i + 1]). */
export class RecordSources {
  constructor(
    private readonly bytes: Buffer,
    private readonly spans: readonly number[],
    private readonly first: number,
  ) {}

  /** Record i's text as bytes (a view of the body's buffer), if the body gave it. */
  at(i: number): Buffer | undefined {
    const k = this.first + 3 * i;
    return k + 1 < this.spans.length ? this.bytes.subarray(this.spans[k], this.spans[k + 1]) : undefined;
  }

  /** Record i's text, decoded from the body's bytes without a view between, if the body gave it. */
  text(i: number): string | undefined {
    const k = this.first + 3 * i;
    return k + 1 < this.spans.length ? this.bytes.toString('utf8', this.spans[k], this.spans[k + 1]) : undefined;
  }
}

type WithSources = { [SOURCES]?: RecordSources };

export function attachSources(records: unknown[], sources: RecordSources): void {
  Object.defineProperty(records, SOURCES, { value: sources });
}

/** The sources of an array's records, if its body gave them. */
export function sourcesOf(records: unknown[]): RecordSources | undefined {
  return (records as WithSources)[SOURCES];
}
