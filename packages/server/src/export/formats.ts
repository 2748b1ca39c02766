import { csvWriter, FIXED_CSV_COLUMNS } from './csv-writer.js';
import { fieldNames } from './flatten-record.js';
import { geojsonWriter, jsonWriter } from './json-writers.js';
import type { ExportRow, TrackWriter } from './track-writer.js';
import { gpxWriter, kmlWriter } from './xml-writers.js';

export const EXPORT_FORMATS = ['json', 'geojson', 'gpx', 'kml', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * A CSV table has one column per field name seen in the exported records; past this many, a
 * hostile device (a new extras key in every record) would make a file no spreadsheet opens.
 * The columns beyond are left out and the answer says how many (Waypost-Columns-Omitted).
 */
export const MAX_CSV_FIELD_COLUMNS = 1000;

/** Whether the format needs a first pass over the records before writing (the CSV header). */
export const needsColumns = (format: ExportFormat): boolean => format === 'csv';

/** The CSV columns of these records' fields (after the stored ones), and how many were left out. */
export function csvColumnsOf(names: Iterable<string>): { columns: string[]; omitted: number } {
  const all = [...names].filter((name) => !FIXED_CSV_COLUMNS.includes(name));
  return { columns: all.slice(0, MAX_CSV_FIELD_COLUMNS), omitted: Math.max(0, all.length - MAX_CSV_FIELD_COLUMNS) };
}

export const collectFieldNames = (names: Set<string>, rows: readonly ExportRow[]): void => {
  for (const name of fieldNames(rows.map((row) => row.fields))) names.add(name);
};

export function trackWriter(format: ExportFormat, deviceId: string, csvColumns: readonly string[]): TrackWriter {
  switch (format) {
    case 'json':
      return jsonWriter();
    case 'geojson':
      return geojsonWriter(deviceId);
    case 'gpx':
      return gpxWriter(deviceId);
    case 'kml':
      return kmlWriter(deviceId);
    case 'csv':
      return csvWriter(csvColumns);
  }
}
