import type { Queryable, SqlValue } from '../db/database.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import type { QuarantinedRecord } from '../ingest/verdicts.js';

/** A quarantined record to keep for a device. */
export interface QuarantineInsert {
  deviceId: string;
  entry: QuarantinedRecord;
}

const COLUMNS = 9;
/** Rows per INSERT statement: well under both databases' bound-parameter limits. */
const ROWS_PER_STATEMENT = 200;

/** The key of a (device, identity) pair in the set insertQuarantine returns. */
export const quarantineKey = (deviceId: string, identity: string): string => `${deviceId}\u0000${identity}`;

/** The record's identity: the one its verdict gave it, else its uuid, else derived from its JSON. */
export const identityOf = (entry: QuarantinedRecord): string => entry.identity ?? entry.uuid ?? deriveUuid(entry.raw);

/**
 * Keeps quarantined records, in the caller's transaction (the one storing the request's records),
 * once per device and record identity: a resent record (an SDK retry, the same batch sent again)
 * is not kept twice, so the device's counter, its ledger and the metric count it once. Answers the
 * keys (quarantineKey) kept now; a row kept before, or earlier in `rows`, is not among them.
 */
export async function insertQuarantine(
  db: Queryable,
  rows: readonly QuarantineInsert[],
  receivedAt: number,
): Promise<Set<string>> {
  const kept = new Set<string>();
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const params: SqlValue[] = chunk.flatMap(({ deviceId, entry }) => [
      deviceId,
      entry.uuid,
      entry.code,
      entry.message,
      entry.raw,
      receivedAt,
      entry.sequence,
      identityOf(entry),
      entry.sequenceEpoch ?? null,
    ]);
    const inserted = await db.query<{ device_id: string; identity: string }>(
      `INSERT INTO quarantine (device_id, uuid, code, message, raw, received_at, sequence, identity, sequence_epoch) VALUES ${chunk
        .map(() => `(${Array(COLUMNS).fill('?').join(', ')})`)
        .join(', ')} ON CONFLICT (device_id, identity) DO NOTHING RETURNING device_id, identity`,
      params,
    );
    for (const row of inserted) kept.add(quarantineKey(row.device_id, row.identity));
  }
  return kept;
}

export interface QuarantineRow {
  id: number;
  uuid: string | null;
  code: string;
  message: string;
  raw: string;
  receivedAt: string;
}

/** A device's quarantined records, newest first, a page at a time (`before`: the previous page's last id). */
export async function listQuarantine(
  db: Queryable,
  deviceId: string,
  limit: number,
  before: number | null,
): Promise<QuarantineRow[]> {
  const rows = await db.query<{
    id: number;
    uuid: string | null;
    code: string;
    message: string;
    raw: string;
    received_at: number;
  }>(
    `SELECT id, uuid, code, message, raw, received_at FROM quarantine
     WHERE device_id = ? ${before === null ? '' : 'AND id < ?'} ORDER BY id DESC LIMIT ?`,
    before === null ? [deviceId, limit] : [deviceId, before, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    uuid: r.uuid,
    code: r.code,
    message: r.message,
    raw: r.raw,
    receivedAt: new Date(Number(r.received_at)).toISOString(),
  }));
}
