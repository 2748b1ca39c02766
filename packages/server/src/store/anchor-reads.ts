import type { Queryable, SqlValue } from '../db/database.js';
import { markChangedHours } from '../track-tiles/pyramid-store.js';
import { marksInStatements } from '../track-tiles/schema.js';

/** What a caller of the anchor's read API may see: everything, one org, or one device. */
export type ReadScope = { kind: 'all' } | { kind: 'org'; org: string } | { kind: 'device'; deviceId: string };

/** Optional narrowing inside the scope: one device, a recorded-time range. */
export interface ReadFilter {
  deviceId: string | null;
  from: number | null;
  to: number | null;
}

function where(scope: ReadScope, filter: ReadFilter, time: string | null): { sql: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (scope.kind === 'org') {
    parts.push('o.name = ?');
    params.push(scope.org);
  } else if (scope.kind === 'device') {
    parts.push('d.id = ?');
    params.push(scope.deviceId);
  }
  if (filter.deviceId !== null) {
    parts.push('d.id = ?');
    params.push(filter.deviceId);
  }
  if (time !== null && filter.from !== null) {
    parts.push(`${time} >= ?`);
    params.push(filter.from);
  }
  if (time !== null && filter.to !== null) {
    parts.push(`${time} <= ?`);
    params.push(filter.to);
  }
  return { sql: parts.length === 0 ? '1 = 1' : parts.join(' AND '), params };
}

export interface AnchorDeviceRow {
  id: string;
  uuid: string | null;
  model: string | null;
  info: string;
  created_at: number;
  last_seen: number | null;
  status: string;
  org_id: number | null;
  org_name: string | null;
}

const DEVICE_COLUMNS = `d.id, d.uuid, d.model, d.info, d.created_at, d.last_seen, d.status, d.org_id, o.name AS org_name`;

/** Devices in scope that were not deleted, the most recently seen first. */
export async function listScopedDevices(
  db: Queryable,
  scope: ReadScope,
  orgId: number | null,
): Promise<AnchorDeviceRow[]> {
  const w = where(scope, { deviceId: null, from: null, to: null }, null);
  const byOrg = orgId === null ? '' : ' AND d.org_id = ?';
  return db.query<AnchorDeviceRow & Record<string, unknown>>(
    `SELECT ${DEVICE_COLUMNS} FROM devices d LEFT JOIN orgs o ON o.id = d.org_id
     WHERE ${w.sql}${byOrg} AND d.status <> 'deleted'
     ORDER BY COALESCE(d.last_seen, d.created_at) DESC, d.id`,
    orgId === null ? w.params : [...w.params, orgId],
  );
}

export async function findScopedDevice(db: Queryable, scope: ReadScope, id: string): Promise<AnchorDeviceRow | null> {
  const w = where(scope, { deviceId: id, from: null, to: null }, null);
  const rows = await db.query<AnchorDeviceRow & Record<string, unknown>>(
    `SELECT ${DEVICE_COLUMNS} FROM devices d LEFT JOIN orgs o ON o.id = d.org_id WHERE ${w.sql}`,
    w.params,
  );
  return rows[0] ?? null;
}

export interface AnchorLocationRow extends AnchorDeviceRow {
  location_id: number;
  location_uuid: string;
  recorded_at: number;
  received_at: number;
  latitude: number | null;
  longitude: number | null;
  record: string;
}

/** Records in scope, the newest recorded first (the anchor's order). */
export async function queryScopedLocations(
  db: Queryable,
  scope: ReadScope,
  filter: ReadFilter,
  limit: number,
): Promise<AnchorLocationRow[]> {
  const w = where(scope, filter, 'l.recorded_at');
  return db.query<AnchorLocationRow & Record<string, unknown>>(
    `SELECT ${DEVICE_COLUMNS}, l.id AS location_id, l.uuid AS location_uuid, l.recorded_at, l.received_at,
       l.latitude, l.longitude, l.record
     FROM locations l JOIN devices d ON d.id = l.device_id LEFT JOIN orgs o ON o.id = d.org_id
     WHERE ${w.sql} ORDER BY l.recorded_at DESC, l.id DESC LIMIT ?`,
    [...w.params, limit],
  );
}

/** Deletes the records in scope and filter; returns how many, and keeps the devices' counts true. */
export async function deleteScopedLocations(db: Queryable, scope: ReadScope, filter: ReadFilter): Promise<number> {
  const w = where(scope, filter, 'l.recorded_at');
  const matching = `SELECT l.id FROM locations l JOIN devices d ON d.id = l.device_id LEFT JOIN orgs o ON o.id = d.org_id WHERE ${w.sql}`;
  const devices = await db.query<{ device_id: string }>(
    `SELECT DISTINCT l.device_id FROM locations l WHERE l.id IN (${matching})`,
    w.params,
  );
  // SQLite marks the track pyramid from here (track-tiles/schema.ts); PostgreSQL's trigger does.
  let deleted: number;
  if (marksInStatements(db)) {
    const gone = await db.query<{ device_id: string; recorded_at: number; latitude: number | null }>(
      `DELETE FROM locations WHERE id IN (${matching}) RETURNING device_id, recorded_at, latitude`,
      w.params,
    );
    const positioned = gone.filter((r) => r.latitude !== null);
    await markChangedHours(
      db,
      positioned.map((r) => ({ deviceId: r.device_id, recordedAt: Number(r.recorded_at) })),
    );
    deleted = gone.length;
  } else deleted = await db.run(`DELETE FROM locations WHERE id IN (${matching})`, w.params);
  for (const { device_id: id } of devices) {
    await db.run(`UPDATE devices SET records = (SELECT COUNT(*) FROM locations WHERE device_id = ?) WHERE id = ?`, [
      id,
      id,
    ]);
  }
  return deleted;
}

export interface ScopedStats {
  minDate: number | null;
  maxDate: number | null;
  minRecordedDate: number | null;
  maxRecordedDate: number | null;
  total: number;
}

export async function scopedStats(db: Queryable, scope: ReadScope): Promise<ScopedStats> {
  const w = where(scope, { deviceId: null, from: null, to: null }, null);
  const rows = await db.query<Record<string, number | string | null>>(
    `SELECT MIN(l.received_at) AS min_date, MAX(l.received_at) AS max_date, MIN(l.recorded_at) AS min_recorded,
       MAX(l.recorded_at) AS max_recorded, COUNT(*) AS total
     FROM locations l JOIN devices d ON d.id = l.device_id LEFT JOIN orgs o ON o.id = d.org_id WHERE ${w.sql}`,
    w.params,
  );
  const row = rows[0] ?? {};
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    minDate: num(row.min_date),
    maxDate: num(row.max_date),
    minRecordedDate: num(row.min_recorded),
    maxRecordedDate: num(row.max_recorded),
    total: Number(row.total ?? 0),
  };
}

/** The orgs in scope: all, the org, or the device's own (none for a device outside any org). */
export async function scopedOrgs(db: Queryable, scope: ReadScope): Promise<{ id: number; name: string }[]> {
  const w = where(scope, { deviceId: null, from: null, to: null }, null);
  const sql =
    scope.kind === 'device'
      ? `SELECT o.id, o.name FROM devices d JOIN orgs o ON o.id = d.org_id WHERE ${w.sql}`
      : `SELECT o.id, o.name FROM orgs o WHERE ${w.sql} ORDER BY o.id`;
  const rows = await db.query<{ id: number; name: string }>(sql, w.params);
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}
