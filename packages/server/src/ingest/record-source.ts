/**
 * The text each record of an upload arrived as, kept from the body's JSON (http/record-spans.ts)
 * so that the stored `record` column is that text rather than the record written out again:
 * JSON.stringify of every record cost about a sixth of the server's main-thread CPU on a batched
 * SQLite upload (issue 43), and the text as sent is the truer copy (numbers keep their digits). A
 * record has a source only where its text is exactly its parsed value: a JSON body parsed by
 * JSON.parse (no escape in any string) whose records are found by position.
 *
 * The texts (UTF-8 bytes, views of the body's buffer) ride on the parsed array of records under a
 * symbol (invisible to JSON and to keys), one per element; extract.ts hands each to its record,
 * and normalize.ts to the stored record. SQLite stores it as a string made at the insert,
 * PostgreSQL copies its bytes into the column's array (pg-arrays.ts).
 * Nothing changes a record after it is parsed (a translator makes a new one, without a source).
 */
const SOURCES = Symbol('record sources');

type WithSources = { [SOURCES]?: readonly Buffer[] };

/** Keeps `texts[i]` as the source of `records[i]`. */
export function attachSources(records: unknown[], texts: readonly Buffer[]): void {
  Object.defineProperty(records, SOURCES, { value: texts });
}

/** The sources of an array's records, if its body gave them. */
export function sourcesOf(records: unknown[]): readonly Buffer[] | undefined {
  return (records as WithSources)[SOURCES];
}
