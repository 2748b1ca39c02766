import type { Queryable, SqlValue } from '../db/database.js';
import { sourceBytes } from '../ingest/normalize.js';
import { byDeviceAndUuid, eventOf, locationKey, type LocationInsert } from './locations.js';
import { float8Array, int4Array, int8Array, textArray } from './pg-arrays.js';

/** What a transaction sent for one device, besides its rows: how many records, how many quarantined. */
export interface DeviceSent {
  deviceId: string;
  sent: number;
  quarantined: number;
}

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

/** Rows a statement takes: its columns go as arrays (pg-arrays.ts), so only memory bounds it. */
const MAX_ROWS = 5000;

/** Whether insertWithTotals can take these rows (one statement holds them all). */
export const fitsOneStatement = (rows: number): boolean => rows >= 1 && rows <= MAX_ROWS;

/** The rows, one array per column, zipped in the order they are inserted. */
const ROWS_FROM = `ROWS FROM (unnest(CAST(? AS TEXT[])), unnest(CAST(? AS TEXT[])), unnest(CAST(? AS BIGINT[])),
          unnest(CAST(? AS DOUBLE PRECISION[])), unnest(CAST(? AS DOUBLE PRECISION[])),
          unnest(CAST(? AS TEXT[])), unnest(CAST(? AS TEXT[])), unnest(CAST(? AS INTEGER[])),
          unnest(CAST(? AS BIGINT[])), unnest(CAST(? AS TEXT[])))
        AS r (device_id, uuid, recorded_at, latitude, longitude, record, event, clock_suspect, sequence, sequence_epoch)`;

function buildSql(fleet: boolean): string {
  return `WITH v (id, sent, kept) AS (SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS BIGINT[]))),
      ins AS (INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record, event, clock_suspect, sequence, sequence_epoch)
        SELECT r.device_id, r.uuid, r.recorded_at, r.latitude, r.longitude, CAST(? AS BIGINT), r.record, r.event, r.clock_suspect, r.sequence, r.sequence_epoch
        FROM ${ROWS_FROM}
        ON CONFLICT (device_id, uuid) DO NOTHING
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
      SELECT c.n, i.device_id, i.uuid FROM (SELECT COUNT(*) AS n FROM ins) c LEFT JOIN ins i ON c.n < CAST(? AS BIGINT)`;
}
/** Two texts in all (with fleet writes or without): each connection prepares and plans each once. */
const SQL = { plain: buildSql(false), fleet: buildSql(true) };

/** What the insert stored: every row given, or (some were stored before, or given twice) these keys. */
export type StoredNow = { every: true } | { every: false; keys: Set<string> };

/** The rows' column arrays, in (device, uuid) order, as insertWithTotals's statement takes them. */
function columnParams(rows: readonly LocationInsert[]): SqlValue[] {
  const sorted = [...rows].sort(byDeviceAndUuid);
  const devices: string[] = [];
  const uuids: string[] = [];
  const recordedAt: number[] = [];
  const latitudes: (number | null)[] = [];
  const longitudes: (number | null)[] = [];
  const records: (string | Buffer)[] = [];
  const events: (string | null)[] = [];
  const suspect: (number | null)[] = [];
  const sequences: (number | null)[] = [];
  const epochs: (string | null)[] = [];
  for (const { deviceId, record: r } of sorted) {
    devices.push(deviceId);
    uuids.push(r.uuid);
    recordedAt.push(r.recordedAt);
    latitudes.push(r.latitude);
    longitudes.push(r.longitude);
    records.push(sourceBytes(r) ?? JSON.stringify(r.record));
    events.push(eventOf(r));
    suspect.push(r.clockSuspect ? 1 : null);
    sequences.push(r.sequence);
    epochs.push(r.sequenceEpoch ?? null);
  }
  return [
    textArray(devices),
    textArray(uuids),
    int8Array(recordedAt),
    float8Array(latitudes),
    float8Array(longitudes),
    textArray(records),
    textArray(events),
    int4Array(suspect),
    int8Array(sequences),
    textArray(epochs),
  ];
}

/**
 * PostgreSQL: inserts the rows and adds each device's counters and last position in ONE statement
 * (data-modifying CTEs), one round trip instead of two per group commit: the totals are computed
 * from what the insert returned, so a row another transaction stored first counts as a duplicate
 * exactly as insertLocations + addIngestTotals count it. With `fleet`, the fleet-event state,
 * history and outbox rows go in the same statement (so PostgreSQL does one round trip for all of
 * a group commit's writes). The rows go as one array per column (a fixed statement text, whatever
 * the group's size), in (device, uuid) order like insertLocations's. Answers what it stored: the
 * keys only when not every row was (a resend, or a uuid twice), else no row comes back per record.
 */
export async function insertWithTotals(
  db: Queryable,
  rows: readonly LocationInsert[],
  devices: readonly DeviceSent[],
  now: number,
  fleet: FleetWrites | null = null,
): Promise<StoredNow> {
  const params: SqlValue[] = [
    textArray(devices.map((d) => d.deviceId)),
    int8Array(devices.map((d) => d.sent)),
    int8Array(devices.map((d) => d.quarantined)),
    now,
    ...columnParams(rows),
    now,
  ];
  if (fleet) {
    params.push(fleet.states, fleet.all, fleet.history, fleet.all, now, now, fleet.outbox, fleet.all);
  }
  params.push(rows.length);
  const result = await db.query<{ n: number; device_id: string | null; uuid: string | null }>(
    fleet ? SQL.fleet : SQL.plain,
    params,
  );
  if (Number(result[0]!.n) === rows.length) return { every: true };
  const keys = new Set<string>();
  for (const row of result) if (row.uuid !== null) keys.add(locationKey(row.device_id!, row.uuid));
  return { every: false, keys };
}
