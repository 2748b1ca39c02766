import type { Queryable } from '../db/database.js';

/** Ids tried for one (org, uuid) before giving up: uuid, uuid~2, ... */
const MAX_ID_ATTEMPTS = 50;

/** The device an org knows by this uuid (the oldest, if it registered it more than once). */
export async function findOrgDevice(db: Queryable, orgId: number, uuid: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM devices WHERE org_id = ? AND uuid = ? ORDER BY created_at, id LIMIT 1`,
    [orgId, uuid],
  );
  return rows[0]?.id ?? null;
}

/** What a device says about itself at registration (kept as its info). */
export interface DeviceInfo {
  uuid: string;
  model: string | null;
  info: Record<string, unknown>;
}

/**
 * A new device of the org. Its id is the uuid when no device has that id yet, else `uuid~2`,
 * `uuid~3`...: device ids stay unique across orgs, and a second registration of a uuid never
 * lands on a device that already exists (that would hand over its records and commands).
 */
export async function createOrgDevice(db: Queryable, orgId: number, device: DeviceInfo, now: number): Promise<string> {
  for (let attempt = 1; attempt <= MAX_ID_ATTEMPTS; attempt++) {
    const id = attempt === 1 ? device.uuid : `${device.uuid}~${attempt}`;
    const rows = await db.query<{ id: string }>(
      `INSERT INTO devices (id, model, info, created_at, status, org_id, uuid) VALUES (?, ?, ?, ?, 'active', ?, ?)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, device.model, JSON.stringify(device.info), now, orgId, device.uuid],
    );
    if (rows[0]) return rows[0].id;
  }
  throw new Error(`No free device id for uuid ${device.uuid} after ${MAX_ID_ATTEMPTS} attempts`);
}

/** The org's device of this uuid, created when the org has none. */
export async function findOrCreateOrgDevice(
  db: Queryable,
  orgId: number,
  device: DeviceInfo,
  now: number,
): Promise<string> {
  return (await findOrgDevice(db, orgId, device.uuid)) ?? createOrgDevice(db, orgId, device, now);
}
