import { EPOCH_PATTERN } from '@waypost/sdk/internal';
import { badRequest } from '../errors.js';
import { deriveUuid } from './derive-uuid.js';
import type { FoundRecord } from './extract.js';
import type { RecordSources } from './record-source.js';
import { INPUT_LIMITS, timestampPlausible } from './validation.js';

/** A record ready to store: the columns the server queries, and the record as given. */
export interface StoredRecord {
  uuid: string;
  recordedAt: number;
  latitude: number | null;
  longitude: number | null;
  record: Record<string, unknown>;
  /** The recorded time is outside 2000..now + 1 day: a device clock that is wrong, kept and flagged. */
  clockSuspect: boolean;
  /** The device's sequence number of the record (the delivery ledger), when it sent a valid one. */
  sequence: number | null;
  /** The numbering `sequence` belongs to (its `sequence_epoch`, issue 39), when it named one. */
  sequenceEpoch?: string | null;
  /** The texts of its body's records (record-source.ts): its own, at `index`, is stored as it arrived; absent: `record` written out. */
  sources?: RecordSources | undefined;
  index?: number | undefined;
}

/** The record's text as it arrived, for PostgreSQL's column array (bytes). */
export const sourceBytes = (r: StoredRecord): Buffer | undefined =>
  r.sources ? r.sources.at(r.index ?? 0) : undefined;

/** The record's text as it arrived, for SQLite's parameter (a string). */
export const sourceText = (r: StoredRecord): string | undefined =>
  r.sources ? r.sources.text(r.index ?? 0) : undefined;

/**
 * A numbered record's `sequence_epoch`: the id of the numbering its sequence belongs to (an SDK
 * whose queue database started again starts a new one), else none (an older SDK, another tracker).
 */
export function sequenceEpochOf(value: unknown): string | null {
  if (sequenceOf(value) === null) return null;
  const epoch = (value as { sequence_epoch?: unknown }).sequence_epoch;
  return typeof epoch === 'string' && EPOCH_PATTERN.test(epoch) ? epoch : null;
}

/** A record's `sequence`: a positive safe integer, else none (a foreign template's field of that name). */
export function sequenceOf(value: unknown): number | null {
  const sequence = value !== null && typeof value === 'object' ? (value as { sequence?: unknown }).sequence : undefined;
  return typeof sequence === 'number' && Number.isSafeInteger(sequence) && sequence >= 1 ? sequence : null;
}

type JsonObject = Record<string, unknown>;

/** A recorded time must be a date of years 1970..9999 (as the SDK records them); else it is no date. */
const LATEST_DATE_MS = Date.UTC(10000, 0, 1);

/**
 * A date and time without an offset: `yyyy-MM-dd HH:mm:ss` (OsmAnd, Traccar) or ISO without a zone.
 * JavaScript would read it in the server's time zone; trackers mean UTC (Traccar reads it so).
 */
const NO_OFFSET = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

const Z = 'Z'.charCodeAt(0);
const parsedDate = (ms: number): number | null => (Number.isNaN(ms) ? null : ms);

/**
 * Epoch milliseconds from ISO text or epoch seconds/milliseconds (seconds when below 1e11). A time
 * without an offset is UTC, whatever the server's time zone.
 */
export function parseTimestamp(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value))
    return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  const text = typeof value === 'string' ? value.trim() : '';
  if (text !== '') {
    // ISO text in UTC (what the SDK sends): neither a number nor a time without an offset, which
    // both end in a digit, so the patterns below need not be tried.
    if (text.charCodeAt(text.length - 1) === Z) return parsedDate(Date.parse(text));
    if (/^-?\d+(\.\d+)?$/.test(text)) return parseTimestamp(Number(text));
    const local = NO_OFFSET.exec(text);
    return parsedDate(Date.parse(local ? `${local[1]}T${local[2]}Z` : text));
  }
  return null;
}

/** A coordinate of a template record: a number, or a number in text (a template may quote it). */
function looseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** A coordinate at `path` + `member` (the name is built only for an error: not per record). */
function coordinate(value: unknown, path: string, member: string, strict: boolean): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const number = strict ? undefined : looseNumber(value);
  if (number === undefined || !Number.isFinite(number)) {
    throw badRequest('INVALID_TYPE', `${path}${member} must be a number, got ${JSON.stringify(value)}`);
  }
  return number;
}

function coordinatesOf(record: JsonObject, path: string): { latitude: number | null; longitude: number | null } {
  const coords = record.coords;
  if (coords !== undefined && (coords === null || typeof coords !== 'object' || Array.isArray(coords))) {
    throw badRequest('INVALID_TYPE', `${path}.coords must be an object, got ${JSON.stringify(coords)}`);
  }
  let latitude: number | null;
  let longitude: number | null;
  if (coords) {
    const c = coords as JsonObject;
    latitude = coordinate(c.latitude, path, '.coords.latitude', true);
    longitude = coordinate(c.longitude, path, '.coords.longitude', true);
  } else {
    latitude = coordinate(record.latitude ?? record.lat, path, '.latitude', false);
    longitude = coordinate(record.longitude ?? record.lon ?? record.lng, path, '.longitude', false);
  }
  if (latitude === null && longitude === null) {
    throw badRequest(
      'NO_LOCATION',
      `${path} holds no location: send coords.latitude and coords.longitude (or latitude/longitude at its top)`,
    );
  }
  if ((latitude === null) !== (longitude === null)) {
    throw badRequest('INVALID_COORDINATES', `${path} has a latitude or a longitude but not both`);
  }
  if (latitude !== null && (latitude < -90 || latitude > 90)) {
    throw badRequest('OUT_OF_RANGE', `${path} latitude ${latitude} is outside -90..90`);
  }
  if (longitude !== null && (longitude < -180 || longitude > 180)) {
    throw badRequest('OUT_OF_RANGE', `${path} longitude ${longitude} is outside -180..180`);
  }
  return { latitude, longitude };
}

/**
 * Validates one record and picks out its uuid, time and position. A record must hold a position
 * (a body of other data is refused: it would show as nothing anywhere); a record without uuid gets
 * one derived from its content, so that a re-send deduplicates.
 */
export function normalizeRecord(found: FoundRecord, receivedAt: number): StoredRecord {
  const { value, path } = found;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(
      'INVALID_RECORD',
      `${path} must be a JSON object (a location record), got ${JSON.stringify(value)}`,
    );
  }
  const record = value as JsonObject;
  const { latitude, longitude } = coordinatesOf(record, path);
  let uuid: string;
  if (record.uuid === undefined || record.uuid === null) uuid = deriveUuid(record);
  else if (
    typeof record.uuid === 'string' &&
    record.uuid.trim() !== '' &&
    record.uuid.length <= INPUT_LIMITS.maxIdLength
  )
    uuid = record.uuid;
  else if (typeof record.uuid === 'string' && record.uuid.length > INPUT_LIMITS.maxIdLength)
    throw badRequest('TEXT_TOO_LONG', `${path}.uuid is longer than ${INPUT_LIMITS.maxIdLength} characters`);
  else throw badRequest('INVALID_TYPE', `${path}.uuid must be a non-empty string, got ${typeof record.uuid}`);
  const rawTime = record.timestamp ?? record.recorded_at ?? record.time;
  let recordedAt = receivedAt;
  let clockSuspect = false;
  if (rawTime !== undefined && rawTime !== null) {
    const parsed = parseTimestamp(rawTime);
    if (parsed === null || parsed < 0 || parsed >= LATEST_DATE_MS) {
      throw badRequest(
        'INVALID_TIMESTAMP',
        `${path}.timestamp is not a date (ISO-8601 or epoch): ${JSON.stringify(rawTime).slice(0, 80)}`,
      );
    }
    recordedAt = parsed;
    clockSuspect = !timestampPlausible(parsed, receivedAt);
  }
  const sequence = sequenceOf(record);
  const sequenceEpoch = sequenceEpochOf(record);
  const { sources, index } = found;
  return { uuid, recordedAt, latitude, longitude, record, clockSuspect, sequence, sequenceEpoch, sources, index };
}
