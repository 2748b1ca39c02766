import type { Queryable } from '../db/database.js';
import { isoOrNull } from '../iso-time.js';
import type { OrgStatus } from './orgs.js';

export type DeviceStatus = 'active' | 'blocked' | 'deleted';

export interface DeviceRow {
  id: string;
  model: string | null;
  /** The name it was given at registration (migration 8), shown instead of its id. */
  name: string | null;
  info: string;
  created_at: number;
  last_seen: number | null;
  status: DeviceStatus;
  records: number;
  duplicates: number;
  quarantined: number;
  last_latitude: number | null;
  last_longitude: number | null;
  last_recorded_at: number | null;
  /** Its organization (migration 2), null for devices outside any. */
  org_id: number | null;
  /** What the device calls itself when registered through an org (the SDK's device uuid). */
  uuid: string | null;
}

/** The columns of DeviceRow: not the fleet-event state (event_*), which only ingest reads. */
const DEVICE_COLUMNS = `id, model, name, info, created_at, last_seen, status, records, duplicates, quarantined,
  last_latitude, last_longitude, last_recorded_at, org_id, uuid`;

export async function findDevice(db: Queryable, id: string): Promise<DeviceRow | null> {
  const rows = await db.query<DeviceRow & Record<string, unknown>>(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

/** The device's status, registering it on first sight (concurrent first uploads are fine). */
export async function ensureDevice(
  db: Queryable,
  id: string,
  now: number,
  model: string | null = null,
): Promise<DeviceStatus> {
  const rows = await db.query<{ status: DeviceStatus }>(`SELECT status FROM devices WHERE id = ?`, [id]);
  if (rows[0]) return rows[0].status;
  await db.run(
    `INSERT INTO devices (id, model, info, created_at, status) VALUES (?, ?, '{}', ?, 'active') ON CONFLICT (id) DO NOTHING`,
    [id, model, now],
  );
  const again = await db.query<{ status: DeviceStatus }>(`SELECT status FROM devices WHERE id = ?`, [id]);
  return again[0]?.status ?? 'active';
}

/**
 * Inserts the device unless it exists: whether this call created it, and its status. One statement,
 * so of concurrent callers (in any process) exactly one sees created = true.
 */
export async function createDeviceIfAbsent(
  db: Queryable,
  id: string,
  model: string | null,
  now: number,
): Promise<{ created: boolean; status: DeviceStatus }> {
  const inserted = await db.run(
    `INSERT INTO devices (id, model, info, created_at, status) VALUES (?, ?, '{}', ?, 'active') ON CONFLICT (id) DO NOTHING`,
    [id, model, now],
  );
  const rows = await db.query<{ status: DeviceStatus }>(`SELECT status FROM devices WHERE id = ?`, [id]);
  return { created: inserted > 0, status: rows[0]?.status ?? 'active' };
}

/** Refreshes what a device says about itself (on registration). */
export async function describeDevice(
  db: Queryable,
  id: string,
  model: string | null,
  info: string,
  now: number,
  name: string | null = null,
): Promise<void> {
  await db.run(
    `UPDATE devices SET model = COALESCE(?, model), name = COALESCE(?, name), info = ?, last_seen = ? WHERE id = ?`,
    [model, name, info, now, id],
  );
}

/** Ids per IN (...) list: well under both databases' bound-parameter limits. */
const IDS_PER_STATEMENT = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const placeholders = (count: number): string => Array(count).fill('?').join(', ');

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
       FROM devices d LEFT JOIN orgs o ON o.id = d.org_id WHERE d.id IN (${placeholders(chunk.length)}) ${dialect === 'postgres' ? 'ORDER BY d.id COLLATE "C" FOR NO KEY UPDATE OF d' : 'ORDER BY d.id'}`,
      chunk,
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

/**
 * Adds to the counters, moves the last position (only forward in recorded time) and stores the
 * fleet-event states given, one statement for all devices of a transaction. Call lockDevices first
 * in the same transaction.
 */
export async function addIngestTotals(db: Queryable, totals: readonly IngestTotals[], now: number): Promise<void> {
  for (const chunk of chunks(totals, IDS_PER_STATEMENT)) {
    const newer = 'v.at IS NOT NULL AND (last_recorded_at IS NULL OR last_recorded_at <= v.at)';
    await db.run(
      `WITH v (id, stored, dups, kept, lat, lon, at, evaluated, cursor, state, silent) AS (VALUES ${chunk.map(() => TOTALS_ROW).join(', ')})
       UPDATE devices SET last_seen = ?, records = records + v.stored, duplicates = duplicates + v.dups,
         quarantined = devices.quarantined + v.kept,
         last_latitude = CASE WHEN ${newer} THEN v.lat ELSE last_latitude END,
         last_longitude = CASE WHEN ${newer} THEN v.lon ELSE last_longitude END,
         last_recorded_at = CASE WHEN ${newer} THEN v.at ELSE last_recorded_at END,
         event_cursor = CASE WHEN v.evaluated = 1 THEN v.cursor ELSE event_cursor END,
         event_state = CASE WHEN v.evaluated = 1 THEN v.state ELSE event_state END,
         event_silent_since = CASE WHEN v.evaluated = 1 THEN v.silent ELSE event_silent_since END
       FROM v WHERE devices.id = v.id`,
      [
        ...chunk.flatMap((t) => [
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
        ]),
        now,
      ],
    );
  }
}

export async function listDevices(db: Queryable): Promise<DeviceRow[]> {
  return db.query<DeviceRow & Record<string, unknown>>(`SELECT ${DEVICE_COLUMNS} FROM devices ORDER BY id`);
}

export async function setDeviceStatus(db: Queryable, id: string, status: DeviceStatus): Promise<boolean> {
  return (await db.run(`UPDATE devices SET status = ? WHERE id = ?`, [status, id])) > 0;
}

/** A device as the API answers it (routes/schemas/devices.ts DEVICE declares the same fields). */
export type DeviceJson = {
  id: string;
  name: string | null;
  model: string | null;
  createdAt: string | null;
  lastSeen: string | null;
  status: DeviceStatus;
  records: number;
  duplicates: number;
  quarantined: number;
  lastPosition: { latitude: number; longitude: number; timestamp: string | null } | null;
};

export function deviceJson(row: DeviceRow): DeviceJson {
  return {
    id: row.id,
    name: row.name ?? null,
    model: row.model,
    createdAt: isoOrNull(Number(row.created_at)),
    lastSeen: row.last_seen === null ? null : isoOrNull(Number(row.last_seen)),
    status: row.status,
    records: row.records,
    duplicates: row.duplicates,
    quarantined: Number(row.quarantined ?? 0),
    lastPosition:
      row.last_latitude === null || row.last_longitude === null || row.last_recorded_at === null
        ? null
        : {
            latitude: row.last_latitude,
            longitude: row.last_longitude,
            timestamp: isoOrNull(Number(row.last_recorded_at)),
          },
  };
}
