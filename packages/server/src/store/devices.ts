import type { Queryable } from '../db/database.js';

export type DeviceStatus = 'active' | 'blocked' | 'deleted';

export interface DeviceRow {
  id: string;
  model: string | null;
  info: string;
  created_at: number;
  last_seen: number | null;
  status: DeviceStatus;
  records: number;
  duplicates: number;
  last_latitude: number | null;
  last_longitude: number | null;
  last_recorded_at: number | null;
}

export async function findDevice(db: Queryable, id: string): Promise<DeviceRow | null> {
  const rows = await db.query<DeviceRow & Record<string, unknown>>(`SELECT * FROM devices WHERE id = ?`, [id]);
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

/** Registers a device or refreshes what it says about itself; returns its status. */
export async function upsertDevice(
  db: Queryable,
  id: string,
  model: string | null,
  info: string,
  now: number,
): Promise<DeviceStatus> {
  const status = await ensureDevice(db, id, now, model);
  await db.run(`UPDATE devices SET model = COALESCE(?, model), info = ?, last_seen = ? WHERE id = ?`, [
    model,
    info,
    now,
    id,
  ]);
  return status;
}

export interface IngestCounts {
  stored: number;
  duplicates: number;
  /** The newest stored position, when the request stored one. */
  last: { latitude: number; longitude: number; recordedAt: number } | null;
}

/** Counters and the last position; the last position only moves forward in recorded time. */
export async function recordIngest(db: Queryable, id: string, now: number, counts: IngestCounts): Promise<void> {
  if (!counts.last) {
    await db.run(`UPDATE devices SET last_seen = ?, records = records + ?, duplicates = duplicates + ? WHERE id = ?`, [
      now,
      counts.stored,
      counts.duplicates,
      id,
    ]);
    return;
  }
  const { latitude, longitude, recordedAt } = counts.last;
  await db.run(
    `UPDATE devices SET last_seen = ?, records = records + ?, duplicates = duplicates + ?,
       last_latitude = CASE WHEN last_recorded_at IS NULL OR last_recorded_at <= ? THEN ? ELSE last_latitude END,
       last_longitude = CASE WHEN last_recorded_at IS NULL OR last_recorded_at <= ? THEN ? ELSE last_longitude END,
       last_recorded_at = CASE WHEN last_recorded_at IS NULL OR last_recorded_at <= ? THEN ? ELSE last_recorded_at END
     WHERE id = ?`,
    [now, counts.stored, counts.duplicates, recordedAt, latitude, recordedAt, longitude, recordedAt, recordedAt, id],
  );
}

export async function listDevices(db: Queryable): Promise<DeviceRow[]> {
  return db.query<DeviceRow & Record<string, unknown>>(`SELECT * FROM devices ORDER BY id`);
}

export async function setDeviceStatus(db: Queryable, id: string, status: DeviceStatus): Promise<boolean> {
  return (await db.run(`UPDATE devices SET status = ? WHERE id = ?`, [status, id])) > 0;
}

export function deviceJson(row: DeviceRow): Record<string, unknown> {
  return {
    id: row.id,
    model: row.model,
    createdAt: new Date(row.created_at).toISOString(),
    lastSeen: row.last_seen === null ? null : new Date(row.last_seen).toISOString(),
    status: row.status,
    records: row.records,
    duplicates: row.duplicates,
    lastPosition:
      row.last_latitude === null || row.last_longitude === null || row.last_recorded_at === null
        ? null
        : {
            latitude: row.last_latitude,
            longitude: row.last_longitude,
            timestamp: new Date(row.last_recorded_at).toISOString(),
          },
  };
}
