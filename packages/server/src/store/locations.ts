import type { Queryable, SqlValue } from '../db/database.js';
import { sourceText, type StoredRecord } from '../ingest/normalize.js';

/** Rows per INSERT statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const ROWS_PER_STATEMENT = 250;
export const COLUMNS = 11;
/** Longer event names are not ones the server knows; the column keeps a bounded prefix. */
const MAX_EVENT_CHARS = 32;

/** `INSERT INTO locations ... VALUES` for `rows` rows, without the conflict clause. */
export const insertValuesSql = (rows: number): string =>
  `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record, event, clock_suspect, sequence, sequence_epoch) VALUES ${Array.from(
    { length: rows },
    () => `(${Array(COLUMNS).fill('?').join(', ')})`,
  ).join(', ')}`;
const buildInsertSql = (rows: number): string =>
  `${insertValuesSql(rows)} ON CONFLICT (device_id, uuid) DO NOTHING RETURNING device_id, uuid`;
/** The statement for each row count, built once: the text is several kB, and the prepared-statement
 *  caches look it up by that text, so building it anew cost a full string hash per statement too. */
const insertSqlByRows: string[] = [];
const insertSql = (rows: number): string => (insertSqlByRows[rows] ??= buildInsertSql(rows));

const INSERT_ONE = `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record, event, clock_suspect, sequence, sequence_epoch)
  VALUES (${Array(COLUMNS).fill('?').join(', ')}) ON CONFLICT (device_id, uuid) DO NOTHING`;

/** A record to insert for a device. */
export interface LocationInsert {
  deviceId: string;
  record: StoredRecord;
}

/** The key of a (device, uuid) pair in the set insertLocations returns. */
export const locationKey = (deviceId: string, uuid: string): string => `${deviceId}\u0000${uuid}`;

export const byDeviceAndUuid = (a: LocationInsert, b: LocationInsert): number =>
  a.deviceId < b.deviceId
    ? -1
    : a.deviceId > b.deviceId
      ? 1
      : a.record.uuid < b.record.uuid
        ? -1
        : a.record.uuid > b.record.uuid
          ? 1
          : 0;

/** The `event` column of a record: its event name, a bounded prefix of it. */
export const eventOf = (r: StoredRecord): string | null =>
  typeof r.record.event === 'string' ? r.record.event.slice(0, MAX_EVENT_CHARS) : null;

/** One row's values, in the column order of insertValuesSql. */
export function rowParams(row: LocationInsert, receivedAt: number): SqlValue[] {
  return fillRowParams(new Array<SqlValue>(COLUMNS), row, receivedAt);
}

/** Writes one row's values into `params` (reused from row to row: no array per row) and returns it. */
function fillRowParams(params: SqlValue[], { deviceId, record: r }: LocationInsert, receivedAt: number): SqlValue[] {
  params[0] = deviceId;
  params[1] = r.uuid;
  params[2] = r.recordedAt;
  params[3] = r.latitude;
  params[4] = r.longitude;
  params[5] = receivedAt;
  params[6] = sourceText(r) ?? JSON.stringify(r.record);
  params[7] = eventOf(r);
  params[8] = r.clockSuspect ? 1 : null;
  params[9] = r.sequence;
  params[10] = r.sequenceEpoch ?? null;
  return params;
}

/**
 * Inserts records once per (device, uuid) and returns the keys (locationKey) of those it did not
 * store now: the database held them (or, of equal keys in one call, the first was stored). The
 * database's unique constraint decides, so several processes sharing it never store a uuid twice.
 * Rows go in (device, uuid) order, so concurrent transactions with overlapping uuids take their
 * row locks in the same order and cannot deadlock. Usually every row is new: then no key is built.
 */
export async function insertLocations(
  db: Queryable,
  rows: readonly LocationInsert[],
  receivedAt: number,
): Promise<ReadonlySet<string>> {
  const sorted = [...rows].sort(byDeviceAndUuid);
  const stored = new Set<string>();
  let storedAll: boolean;
  if (db.runEach) {
    // One row per run: a run that changed a row stored it. One parameter array for all the runs.
    const params = new Array<SqlValue>(COLUMNS);
    const changes = await db.runEach(INSERT_ONE, sorted.length, (i) => fillRowParams(params, sorted[i]!, receivedAt));
    storedAll = changes.every((changed) => changed > 0);
    if (!storedAll)
      sorted.forEach(({ deviceId, record }, i) => {
        if (changes[i]! > 0) stored.add(locationKey(deviceId, record.uuid));
      });
  } else {
    for (let start = 0; start < sorted.length; start += ROWS_PER_STATEMENT) {
      const chunk = sorted.slice(start, start + ROWS_PER_STATEMENT);
      const params = chunk.flatMap((row) => rowParams(row, receivedAt));
      const inserted = await db.query<{ device_id: string; uuid: string }>(insertSql(chunk.length), params);
      for (const row of inserted) stored.add(locationKey(row.device_id, row.uuid));
    }
    storedAll = stored.size === sorted.length;
  }
  return storedAll ? NONE_HELD : heldKeys(sorted, stored);
}

const NONE_HELD: ReadonlySet<string> = new Set();

/** The keys (locationKey) of the rows offered whose key is not among those stored now. */
export function heldKeys(offered: readonly LocationInsert[], storedNow: ReadonlySet<string>): Set<string> {
  return new Set(offered.map((row) => locationKey(row.deviceId, row.record.uuid)).filter((key) => !storedNow.has(key)));
}

export interface LocationRow {
  uuid: string;
  recorded_at: number;
  latitude: number | null;
  longitude: number | null;
  record: string;
  received_at: number;
  /** 1 when the recorded time was implausible (a device clock that is wrong), else null. */
  clock_suspect: number | null;
}
