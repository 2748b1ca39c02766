import { badRequest } from '../errors.js';
import { parseTimestamp } from '../ingest/normalize.js';

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A finite number, else undefined: an unknown value is left out of the record, never invented. */
export const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A number a tracker may send as text (form parameters are text), else undefined. */
export function looseFinite(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(number))
    throw badRequest('INVALID_TYPE', `${where} must be a number, got ${JSON.stringify(value).slice(0, 80)}`);
  return number;
}

/** The members whose value is not undefined (unknown values are absent from stored records). */
export function defined(members: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(members)) if (value !== undefined) out[key] = value;
  return out;
}

/** A record's recorded time must be a date of years 1970..9999, as /locations takes them. */
const LATEST_DATE_MS = Date.UTC(10000, 0, 1);

/**
 * A tracker's time as ISO text: epoch seconds or milliseconds, ISO, or `yyyy-MM-dd HH:mm:ss`
 * (UTC). A value that is no date is a 400 INVALID_TIMESTAMP (the record is quarantined); a date
 * outside the plausible window is kept, and flagged by normalizeRecord, as on /locations.
 */
export function isoTime(value: unknown, where: string): string {
  const ms = parseTimestamp(value);
  if (ms === null || ms < 0 || ms >= LATEST_DATE_MS) {
    throw badRequest('INVALID_TIMESTAMP', `${where} is not a date: ${JSON.stringify(value)?.slice(0, 80)}`);
  }
  return new Date(ms).toISOString();
}

/** 400 NOT_A_POSITION: a record the tracker sends that is no track point (kept in quarantine). */
export const notAPosition = (what: string) =>
  badRequest('NOT_A_POSITION', `${what}: kept in quarantine, not stored as a track point`);
