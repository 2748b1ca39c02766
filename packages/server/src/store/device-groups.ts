import type { Queryable } from '../db/database.js';

export interface DeviceGroup {
  name: string;
  devices: string[];
  createdAt: number;
}

/** Most devices one group names: a PUT replaces them all in one transaction. */
export const MAX_GROUP_DEVICES = 10_000;

export async function listGroups(db: Queryable): Promise<DeviceGroup[]> {
  const groups = await db.query<{ name: string; created_at: number }>(
    `SELECT name, created_at FROM device_groups ORDER BY name`,
  );
  const members = await db.query<{ group_name: string; device_id: string }>(
    `SELECT group_name, device_id FROM device_group_members ORDER BY group_name, device_id`,
  );
  const byGroup = new Map<string, string[]>();
  for (const m of members) byGroup.set(m.group_name, [...(byGroup.get(m.group_name) ?? []), m.device_id]);
  return groups.map((g) => ({ name: g.name, devices: byGroup.get(g.name) ?? [], createdAt: Number(g.created_at) }));
}

/** The ids among `ids` that are no device (a group names only devices that exist). */
export async function missingDevices(db: Queryable, ids: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const found = await db.query<{ id: string }>(
      `SELECT id FROM devices WHERE status <> 'deleted' AND id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    const present = new Set(found.map((row) => row.id));
    missing.push(...chunk.filter((id) => !present.has(id)));
  }
  return missing;
}

/** Creates the group or replaces its devices (in the caller's transaction). True when it was new. */
export async function putGroup(db: Queryable, name: string, devices: readonly string[], now: number): Promise<boolean> {
  const created =
    (await db.run(`INSERT INTO device_groups (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, [
      name,
      now,
    ])) > 0;
  await db.run(`DELETE FROM device_group_members WHERE group_name = ?`, [name]);
  for (const id of devices) {
    await db.run(`INSERT INTO device_group_members (group_name, device_id) VALUES (?, ?)`, [name, id]);
  }
  return created;
}

export async function deleteGroup(db: Queryable, name: string): Promise<boolean> {
  await db.run(`DELETE FROM device_group_members WHERE group_name = ?`, [name]);
  return (await db.run(`DELETE FROM device_groups WHERE name = ?`, [name])) > 0;
}

/** The devices of these groups (a user's groups), as a set: read once per list or feed. */
export async function devicesOfGroups(db: Queryable, groups: readonly string[]): Promise<Set<string>> {
  if (groups.length === 0) return new Set();
  const rows = await db.query<{ device_id: string }>(
    `SELECT DISTINCT device_id FROM device_group_members WHERE group_name IN (${groups.map(() => '?').join(', ')})`,
    groups,
  );
  return new Set(rows.map((row) => row.device_id));
}

/** Whether the device is in one of these groups. */
export async function inGroups(db: Queryable, groups: readonly string[], deviceId: string): Promise<boolean> {
  if (groups.length === 0) return false;
  const rows = await db.query(
    `SELECT 1 AS x FROM device_group_members WHERE device_id = ? AND group_name IN (${groups.map(() => '?').join(', ')}) LIMIT 1`,
    [deviceId, ...groups],
  );
  return rows.length > 0;
}
