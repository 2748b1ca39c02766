import type { Queryable, SqlValue } from '../db/database.js';
import type { QuarantinedRecord } from '../ingest/verdicts.js';

/** A quarantined record to keep for a device. */
export interface QuarantineInsert {
  deviceId: string;
  entry: QuarantinedRecord;
}

const COLUMNS = 7;
/** Rows per INSERT statement: well under both databases' bound-parameter limits. */
const ROWS_PER_STATEMENT = 200;

/** Keeps quarantined records, in the caller's transaction (the one storing the request's records). */
export async function insertQuarantine(
  db: Queryable,
  rows: readonly QuarantineInsert[],
  receivedAt: number,
): Promise<void> {
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
    ]);
    await db.run(
      `INSERT INTO quarantine (device_id, uuid, code, message, raw, received_at, sequence) VALUES ${chunk
        .map(() => `(${Array(COLUMNS).fill('?').join(', ')})`)
        .join(', ')}`,
      params,
    );
  }
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
