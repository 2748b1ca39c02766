import type { FlatValue } from './flatten-record.js';
import type { TrackWriter } from './track-writer.js';
import { iso } from './track-writer.js';

/** CSV field quoting of RFC 4180. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Text as a CSV cell a spreadsheet will not run: text that starts like a formula (= + - @, tab,
 * carriage return) gets a leading apostrophe. Header cells are record keys, as hostile as values.
 */
export const safeText = (value: string): string => csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** A record's value as a cell: numbers (-73.5) stay numbers, unknown (null) is an empty cell. */
function csvValue(value: FlatValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return String(value);
  return safeText(value);
}

export const FIXED_CSV_COLUMNS = ['uuid', 'timestamp', 'latitude', 'longitude', 'received_at'];

/** CSV with the stored columns, then one column per record field (`names`, known before the first row). */
export const csvWriter = (names: readonly string[]): TrackWriter => ({
  type: 'text/csv; charset=utf-8',
  head: () => `${[...FIXED_CSV_COLUMNS, ...names.map(safeText)].join(',')}\n`,
  row({ row, fields }) {
    const stored = [
      csvValue(row.uuid),
      iso(row.recorded_at),
      row.latitude ?? '',
      row.longitude ?? '',
      iso(row.received_at),
    ];
    return `${[...stored, ...names.map((name) => csvValue(fields.get(name)))].join(',')}\n`;
  },
  tail: () => '',
});
