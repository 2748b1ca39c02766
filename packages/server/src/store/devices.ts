import type { Queryable } from '../db/database.js';
import { isoOrNull } from '../iso-time.js';

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
