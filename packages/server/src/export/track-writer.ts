import { isoOrNull } from '../iso-time.js';
import type { LocationRow } from '../store/locations.js';
import type { FlatValue } from './flatten-record.js';

/** A stored record as the exports see it: the row, its parsed record and its flat fields. */
export interface ExportRow {
  row: LocationRow;
  /** The stored record as JSON, or null for a row that does not parse (an export never fails on it). */
  record: unknown;
  /** The record's fields flattened (coords.speed, ...), the schema's -1 "unknown" as null. */
  fields: Map<string, FlatValue>;
}

/**
 * One export format, written as a stream: the head, each record's text, the tail. A writer is made
 * per answer and may keep state (a separator after the first item).
 */
export interface TrackWriter {
  readonly type: string;
  head(): string;
  row(item: ExportRow): string;
  tail(): string;
}

/** Stored times are checked on the way in, but an old or hand-edited row must not fail an export. */
export const iso = (ms: number): string => isoOrNull(Number(ms)) ?? '';

/** Rows with a position (a record kept without one has nothing to draw). */
export const positionOf = (row: LocationRow): { latitude: number; longitude: number } | null =>
  row.latitude === null || row.longitude === null
    ? null
    : { latitude: Number(row.latitude), longitude: Number(row.longitude) };
