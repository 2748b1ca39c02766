import type { Queryable } from '../db/database.js';
import { keyOfRow, locationPage, type KeyedLocationRow, type LocationRange } from '../store/location-pages.js';
import { flattenRecord } from './flatten-record.js';
import type { ExportRow } from './track-writer.js';
import { unknownsAsNull } from './unknown-values.js';

/** Rows read per query: an export of any length holds one page in memory at a time. */
export const EXPORT_PAGE_ROWS = 1000;

/** The stored record as JSON; a row that does not parse is shown as null rather than failing the export. */
function parsedRecord(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export const exportRowOf = (row: KeyedLocationRow): ExportRow => {
  const record = parsedRecord(row.record);
  return { row, record, fields: unknownsAsNull(flattenRecord(record)) };
};

/** Every record of the range, page by page, in export order. */
export async function* exportPages(db: Queryable, range: LocationRange): AsyncGenerator<ExportRow[]> {
  let after = range.after;
  for (;;) {
    const rows = await locationPage(db, { ...range, after }, EXPORT_PAGE_ROWS);
    if (rows.length > 0) yield rows.map(exportRowOf);
    if (rows.length < EXPORT_PAGE_ROWS) return;
    after = keyOfRow(rows[rows.length - 1]!);
  }
}
