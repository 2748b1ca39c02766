import { HttpError } from '../errors.js';
import { deriveUuid } from './derive-uuid.js';
import type { FoundRecord } from './extract.js';
import { normalizeRecord, sequenceEpochOf, sequenceOf, type StoredRecord } from './normalize.js';
import { INPUT_LIMITS } from './validation.js';

/** A record the server could not take: kept, with why, never silently dropped. */
export interface QuarantinedRecord {
  uuid: string | null;
  code: string;
  message: string;
  /** The record as sent, as JSON text, at most MAX_RAW_CHARS of it. */
  raw: string;
  /** Its sequence number, when it carried a valid one: quarantined numbers are not missing. */
  sequence: number | null;
  /** The numbering of its sequence number (issue 39), when it named one. */
  sequenceEpoch?: string | null;
  /**
   * Who it is, so that a resent record is quarantined once per device (issue 29): its uuid when it
   * carries a usable one, else the uuid the server derives from its content (as for records
   * stored without one). Absent: the store derives it from `uuid` and `raw`.
   */
  identity?: string;
}

/**
 * How a tracker's own record (OsmAnd parameters, an Overland Feature, an OwnTracks message...)
 * becomes a default-schema record. `record` throws a 400 HttpError for an item it cannot take: that
 * item is quarantined as it was sent, with the error's code.
 */
export interface Translator {
  record(value: unknown, path: string): unknown;
  /** The item's delivery-ledger sequence number as sent (for a quarantined item), when it has one. */
  sequence?(value: unknown): number | null;
  /** Who a quarantined item is (kept once per device and identity), when its `uuid` does not say it. */
  identity?(value: unknown): string;
}

/** A quarantined record's JSON is kept up to this many characters (the body limit bounds it anyway). */
export const MAX_RAW_CHARS = 16_384;

/**
 * Per-record verdicts (issue 19): one bad record never blocks a device. Each record of a usable
 * body is checked on its own: the valid ones are stored, each invalid one is quarantined with its
 * reason code (the 400 it would have caused), and the request still succeeds. What makes a request
 * unusable as a whole (not JSON, no records, too big, too deep, no device) is refused before this.
 */
export function verdicts(found: readonly FoundRecord[], receivedAt: number, translator?: Translator) {
  const records: StoredRecord[] = [];
  const quarantined: QuarantinedRecord[] = [];
  for (const item of found) {
    try {
      const value = translator ? translator.record(item.value, item.path) : item.value;
      records.push(normalizeRecord(translator ? { value, path: item.path } : item, receivedAt));
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 400) throw error;
      // A body that is itself the only "record" and holds no location has no records at all: the
      // request is unusable as a whole ({"device_id": "x"} alone), not a record to keep.
      if (found.length === 1 && item.path === 'body' && error.code === 'NO_LOCATION') throw error;
      quarantined.push({
        uuid: uuidOf(item.value),
        code: error.code,
        message: error.message,
        raw: rawOf(item.value),
        sequence: translator?.sequence ? translator.sequence(item.value) : sequenceOf(item.value),
        sequenceEpoch: translator ? null : sequenceEpochOf(item.value),
        identity: translator?.identity ? translator.identity(item.value) : identityOf(item.value),
      });
    }
  }
  return { records, quarantined };
}

function uuidOf(value: unknown): string | null {
  const uuid = value !== null && typeof value === 'object' ? (value as { uuid?: unknown }).uuid : undefined;
  return typeof uuid === 'string' && uuid !== '' ? uuid.slice(0, INPUT_LIMITS.maxIdLength) : null;
}

/** A usable uuid (as normalizeRecord accepts one), else the content-derived one. */
function identityOf(value: unknown): string {
  const uuid = value !== null && typeof value === 'object' ? (value as { uuid?: unknown }).uuid : undefined;
  if (typeof uuid === 'string' && uuid.trim() !== '' && uuid.length <= INPUT_LIMITS.maxIdLength) return uuid;
  return deriveUuid(value);
}

function rawOf(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_RAW_CHARS ? text.slice(0, MAX_RAW_CHARS) : text;
}
