import type { Queryable, SqlValue } from '../db/database.js';
import {
  byDeviceAndUuid,
  insertValuesSql,
  locationKey,
  ROWS_PER_STATEMENT,
  rowParams,
  type LocationInsert,
} from './locations.js';

/** What a transaction sent for one device, besides its rows: how many records, how many quarantined. */
export interface DeviceSent {
  deviceId: string;
  sent: number;
  quarantined: number;
}

/** Whether insertWithTotals can take these rows (one statement holds them all). */
export const fitsOneStatement = (rows: number): boolean => rows >= 1 && rows <= ROWS_PER_STATEMENT;

const DEVICE_ROW = '(CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT))';
const newer = 'w.recorded_at IS NOT NULL AND (last_recorded_at IS NULL OR last_recorded_at <= w.recorded_at)';

/**
 * The fleet-event writes of the same transaction (issue 21): the devices' states (with their
 * counters), the history and the outbox, taken only when every record the caller evaluated was
 * stored now (`all` is how many that is). Else (a record resent, stored before) they write nothing
 * and the caller decides again from what was stored and writes them itself.
 */
const FLEET_CTES = `,
      hist AS (INSERT INTO fleet_events (event_id, device_id, type, at, body)
        SELECT r.event_id, r.device_id, r.type, r.at, r.body
        FROM json_to_recordset(CAST(? AS json)) AS r (n INT, event_id TEXT, device_id TEXT, type TEXT, at BIGINT, body TEXT)
        WHERE (SELECT COUNT(*) FROM ins) = CAST(? AS BIGINT) ORDER BY r.n
        ON CONFLICT (event_id) DO NOTHING),
      ob AS (INSERT INTO outbox (sink_id, event_id, device_id, type, body, created_at, next_at)
        SELECT r.sink_id, r.event_id, r.device_id, r.type, r.body, CAST(? AS BIGINT), CAST(? AS BIGINT)
        FROM json_to_recordset(CAST(? AS json)) AS r (n INT, sink_id TEXT, event_id TEXT, device_id TEXT, type TEXT, body TEXT)
        WHERE (SELECT COUNT(*) FROM ins) = CAST(? AS BIGINT) ORDER BY r.n)`;
/** The devices' new evaluation states, joined into the counters' update (one update per row). */
const STATE_JOIN = ` LEFT JOIN (SELECT r.* FROM json_to_recordset(CAST(? AS json))
        AS r (device_id TEXT, cursor BIGINT, state TEXT, silent_since BIGINT)
        WHERE (SELECT COUNT(*) FROM ins) = CAST(? AS BIGINT)) st ON st.device_id = v.id`;
const STATE_SET = `,
        event_cursor = CASE WHEN st.device_id IS NULL THEN event_cursor ELSE st.cursor END,
        event_state = CASE WHEN st.device_id IS NULL THEN event_state ELSE st.state END,
        event_silent_since = CASE WHEN st.device_id IS NULL THEN event_silent_since ELSE st.silent_since END`;

/** What insertWithTotals writes besides, as JSON arrays (event-rows.ts, device-state-store.ts). */
export interface FleetWrites {
  states: string;
  history: string;
  outbox: string;
  /** How many rows the insert must store for these to be written (the records they were decided from). */
  all: number;
}

const sqlByShape = new Map<string, string>();
function sqlFor(devices: number, rows: number, fleet: boolean): string {
  const key = `${devices}x${rows}${fleet ? 'f' : ''}`;
  let sql = sqlByShape.get(key);
  if (!sql) {
    sql = `WITH v (id, sent, kept) AS (VALUES ${Array(devices).fill(DEVICE_ROW).join(', ')}),
      ins AS (${insertValuesSql(rows)} ON CONFLICT (device_id, uuid) DO NOTHING
        RETURNING device_id, uuid, recorded_at, latitude, longitude),
      fresh AS (SELECT device_id, COUNT(*) AS n FROM ins GROUP BY device_id),
      newest AS (SELECT DISTINCT ON (device_id) device_id, latitude, longitude, recorded_at FROM ins
        WHERE latitude IS NOT NULL AND longitude IS NOT NULL ORDER BY device_id, recorded_at DESC),
      totals AS (UPDATE devices SET last_seen = ?, records = records + COALESCE(f.n, 0),
        duplicates = duplicates + v.sent - COALESCE(f.n, 0), quarantined = devices.quarantined + v.kept,
        last_latitude = CASE WHEN ${newer} THEN w.latitude ELSE last_latitude END,
        last_longitude = CASE WHEN ${newer} THEN w.longitude ELSE last_longitude END,
        last_recorded_at = CASE WHEN ${newer} THEN w.recorded_at ELSE last_recorded_at END${fleet ? STATE_SET : ''}
        FROM v LEFT JOIN fresh f ON f.device_id = v.id LEFT JOIN newest w ON w.device_id = v.id${fleet ? STATE_JOIN : ''}
        WHERE devices.id = v.id)${fleet ? FLEET_CTES : ''}
      SELECT device_id, uuid FROM ins`;
    sqlByShape.set(key, sql);
  }
  return sql;
}

/**
 * PostgreSQL: inserts the rows and adds each device's counters and last position in ONE statement
 * (data-modifying CTEs), one round trip instead of two per group commit: the totals are computed
 * from what the insert returned, so a row another transaction stored first counts as a duplicate
 * exactly as insertLocations + addIngestTotals count it. With `fleet`, the fleet-event state,
 * history and outbox rows go in the same statement (so PostgreSQL does one round trip for all of
 * a group commit's writes). Answers the keys stored now.
 */
export async function insertWithTotals(
  db: Queryable,
  rows: readonly LocationInsert[],
  devices: readonly DeviceSent[],
  now: number,
  fleet: FleetWrites | null = null,
): Promise<Set<string>> {
  const sorted = [...rows].sort(byDeviceAndUuid);
  const params: SqlValue[] = [
    ...devices.flatMap((d) => [d.deviceId, d.sent, d.quarantined]),
    ...sorted.flatMap((row) => rowParams(row, now)),
    now,
  ];
  if (fleet) {
    params.push(fleet.states, fleet.all, fleet.history, fleet.all, now, now, fleet.outbox, fleet.all);
  }
  const inserted = await db.query<{ device_id: string; uuid: string }>(
    sqlFor(devices.length, sorted.length, fleet !== null),
    params,
  );
  return new Set(inserted.map((row) => locationKey(row.device_id, row.uuid)));
}
