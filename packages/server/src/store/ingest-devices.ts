import type { Queryable } from '../db/database.js';
import type { DeviceStatus } from './devices.js';
import type { OrgStatus } from './orgs.js';

/** Ids per IN (...) list: well under both databases' bound-parameter limits. */
const IDS_PER_STATEMENT = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const placeholders = (count: number): string => Array(count).fill('?').join(', ');

/**
 * SQLite's list of ids padded to the next power of two with its last id (IN is a set): a group's
 * device count varies at each commit, and each new count was a statement to prepare (a millisecond
 * for this one); padded, a few statements serve every count.
 */
function padded(ids: string[]): string[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  return ids.length === size ? ids : [...ids, ...Array<string>(size - ids.length).fill(ids[ids.length - 1]!)];
}

/** What an ingest transaction needs to know of a registered device. */
export interface DeviceState {
  status: DeviceStatus;
  /** Whether remote commands wait for it (as of this read). */
  pendingCommands: boolean;
  /** Its organization, when it belongs to one. */
  org: { name: string; status: OrgStatus } | null;
  /** Its fleet-event evaluation state as stored (devices.event_*), null before the first. */
  eventState: RawEventState | null;
  /** Its records stored so far (the live feed tells dashboards the count after each commit). */
  records?: number;
  /** It was given a token or a device key: never written without one (issue 41). */
  credentialed?: boolean;
}

/** A device's fleet-event state columns as read: the fleet code parses them (device-state-store.ts). */
export interface RawEventState {
  cursor: number | null;
  state: string;
  silentSince: number | null;
}

/**
 * The state of each of these devices that is registered. On PostgreSQL the rows are locked too, in
 * id order, until the transaction ends: ingest transactions touching the same devices (in this or
 * another process) then run one after the other instead of deadlocking, and a device's status
 * cannot change under a transaction that stores records for it.
 */
export async function lockDevices(
  db: Queryable,
  dialect: 'sqlite' | 'postgres',
  ids: readonly string[],
): Promise<Map<string, DeviceState>> {
  const states = new Map<string, DeviceState>();
  const sorted = [...ids].sort();
  for (const chunk of chunks(sorted, IDS_PER_STATEMENT)) {
    const params = dialect === 'sqlite' ? padded(chunk) : chunk;
    const rows = await db.query<{
      id: string;
      status: DeviceStatus;
      pending: boolean | number;
      org_name: string | null;
      org_status: OrgStatus | null;
      cursor: number | null;
      state: string | null;
      silent_since: number | null;
      records: number;
      credentialed_at: number | null;
    }>(
      // The fleet-event state rides along on the locked row: no query of its own, and as the
      // previous holder of the lock left it.
      `SELECT d.id, d.status, EXISTS (SELECT 1 FROM commands c WHERE c.device_id = d.id AND c.status = 'pending') AS pending,
         o.name AS org_name, o.status AS org_status,
         d.event_cursor AS cursor, d.event_state AS state, d.event_silent_since AS silent_since, d.records,
         d.credentialed_at
       FROM devices d LEFT JOIN orgs o ON o.id = d.org_id WHERE d.id IN (${placeholders(params.length)}) ${dialect === 'postgres' ? 'ORDER BY d.id COLLATE "C" FOR NO KEY UPDATE OF d' : 'ORDER BY d.id'}`,
      params,
    );
    for (const row of rows) {
      const org = row.org_name === null ? null : { name: row.org_name, status: row.org_status ?? 'active' };
      const eventState =
        row.state === null
          ? null
          : {
              cursor: row.cursor === null ? null : Number(row.cursor),
              state: row.state,
              silentSince: row.silent_since === null ? null : Number(row.silent_since),
            };
      states.set(row.id, {
        status: row.status,
        pendingCommands: Boolean(row.pending),
        org,
        eventState,
        records: Number(row.records),
        credentialed: row.credentialed_at !== null,
      });
    }
  }
  return states;
}

/** Registers devices seen for the first time (another process may register them at the same time). */
export async function registerDevices(db: Queryable, ids: readonly string[], now: number): Promise<void> {
  for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
    await db.run(
      `INSERT INTO devices (id, model, info, created_at, status) VALUES ${chunk.map(() => `(?, NULL, '{}', ?, 'active')`).join(', ')} ON CONFLICT (id) DO NOTHING`,
      chunk.flatMap((id) => [id, now]),
    );
  }
}

/** What one transaction adds to a device's counters. */
export interface IngestTotals {
  deviceId: string;
  stored: number;
  duplicates: number;
  quarantined: number;
  /** The newest stored position, when one was stored. */
  last: { latitude: number; longitude: number; recordedAt: number } | null;
  /** Its new fleet-event state, when it changed (written by the same update). */
  eventState?: RawEventState;
}

const TOTALS_ROW =
  '(CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT), ' +
  'CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT))';

const NEWER = 'v.at IS NOT NULL AND (last_recorded_at IS NULL OR last_recorded_at <= v.at)';

/** The update of `rows` devices' counters, last positions and fleet-event states. */
const totalsSql = (rows: number): string =>
  `WITH v (id, stored, dups, kept, lat, lon, at, evaluated, cursor, state, silent) AS (VALUES ${Array<string>(rows).fill(TOTALS_ROW).join(', ')})
   UPDATE devices SET last_seen = ?, records = records + v.stored, duplicates = duplicates + v.dups,
     quarantined = devices.quarantined + v.kept,
     last_latitude = CASE WHEN ${NEWER} THEN v.lat ELSE last_latitude END,
     last_longitude = CASE WHEN ${NEWER} THEN v.lon ELSE last_longitude END,
     last_recorded_at = CASE WHEN ${NEWER} THEN v.at ELSE last_recorded_at END,
     event_cursor = CASE WHEN v.evaluated = 1 THEN v.cursor ELSE event_cursor END,
     event_state = CASE WHEN v.evaluated = 1 THEN v.state ELSE event_state END,
     event_silent_since = CASE WHEN v.evaluated = 1 THEN v.silent ELSE event_silent_since END
   FROM v WHERE devices.id = v.id`;
const UPDATE_ONE = totalsSql(1);

const totalsParams = (t: IngestTotals): (string | number | null)[] => [
  t.deviceId,
  t.stored,
  t.duplicates,
  t.quarantined,
  t.last?.latitude ?? null,
  t.last?.longitude ?? null,
  t.last?.recordedAt ?? null,
  t.eventState ? 1 : 0,
  t.eventState?.cursor ?? null,
  t.eventState?.state ?? null,
  t.eventState?.silentSince ?? null,
];

/**
 * Adds to the counters, moves the last position (only forward in recorded time) and stores the
 * fleet-event states given: on PostgreSQL one statement for all devices of a transaction; on
 * SQLite one prepared single-device update run per device (an in-process call each: a statement
 * per device count was one more to prepare at each new count). Call lockDevices first in the same
 * transaction.
 */
export async function addIngestTotals(db: Queryable, totals: readonly IngestTotals[], now: number): Promise<void> {
  if (totals.length === 0) return;
  if (db.runEach) {
    await db.runEach(UPDATE_ONE, totals.length, (i) => [...totalsParams(totals[i]!), now]);
    return;
  }
  for (const chunk of chunks(totals, IDS_PER_STATEMENT)) {
    await db.run(totalsSql(chunk.length), [...chunk.flatMap(totalsParams), now]);
  }
}
