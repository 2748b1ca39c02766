import type { Queryable } from '../db/database.js';

/** What the server says of a device's key, never the key: it is shown once, when made. */
export interface DeviceKeyState {
  /** When the key in force was made (epoch ms), null when the device has none. */
  createdAt: number | null;
  /** When the device's last key was revoked (epoch ms), null when none was or one is in force. */
  revokedAt: number | null;
}

/** The device of a key in force, else whether that hash was a key and was revoked. */
export type KeyLookup = { deviceId: string; revoked: boolean } | null;

/**
 * Makes `hash` the device's one key in force (in the caller's transaction): any earlier key is
 * revoked (a rotation), and the device is marked credentialed (no anonymous write for it again).
 * The device's row is written first: on PostgreSQL its lock makes two rotations of one device take
 * turns, so the second revokes the first's key instead of both staying in force (SQLite has one
 * writer at a time anyway).
 */
export async function replaceDeviceKey(db: Queryable, deviceId: string, hash: string, now: number): Promise<void> {
  await db.run(`UPDATE devices SET credentialed_at = COALESCE(credentialed_at, ?) WHERE id = ?`, [now, deviceId]);
  await db.run(`UPDATE device_keys SET revoked_at = ? WHERE device_id = ? AND revoked_at IS NULL`, [now, deviceId]);
  await db.run(`INSERT INTO device_keys (key_hash, device_id, created_at) VALUES (?, ?, ?)`, [hash, deviceId, now]);
}

/** Revokes the device's key in force; whether there was one. */
export async function revokeDeviceKey(db: Queryable, deviceId: string, now: number): Promise<boolean> {
  return (
    (await db.run(`UPDATE device_keys SET revoked_at = ? WHERE device_id = ? AND revoked_at IS NULL`, [
      now,
      deviceId,
    ])) > 0
  );
}

/** Who a key's hash speaks for: one indexed read, so a revocation counts at once in every process. */
export async function findDeviceKey(db: Queryable, hash: string): Promise<KeyLookup> {
  const rows = await db.query<{ device_id: string; revoked_at: number | string | null }>(
    `SELECT device_id, revoked_at FROM device_keys WHERE key_hash = ?`,
    [hash],
  );
  const row = rows[0];
  return row ? { deviceId: row.device_id, revoked: row.revoked_at !== null } : null;
}

export async function deviceKeyState(db: Queryable, deviceId: string): Promise<DeviceKeyState> {
  const rows = await db.query<{ created_at: number | string; revoked_at: number | string | null }>(
    `SELECT created_at, revoked_at FROM device_keys WHERE device_id = ? ORDER BY created_at DESC LIMIT 1`,
    [deviceId],
  );
  const row = rows[0];
  if (!row) return { createdAt: null, revokedAt: null };
  return row.revoked_at === null
    ? { createdAt: Number(row.created_at), revokedAt: null }
    : { createdAt: null, revokedAt: Number(row.revoked_at) };
}

/** The device has been given a credential (tokens or a key): from now on every write needs one. */
export async function markCredentialed(db: Queryable, deviceId: string, now: number): Promise<void> {
  await db.run(`UPDATE devices SET credentialed_at = ? WHERE id = ? AND credentialed_at IS NULL`, [now, deviceId]);
}

/** Which of `deviceIds` have been given a credential (one indexed read by primary key). */
export async function credentialedAmong(db: Queryable, deviceIds: readonly string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM devices WHERE id IN (${deviceIds.map(() => '?').join(', ')}) AND credentialed_at IS NOT NULL`,
    [...deviceIds],
  );
  return rows.map((row) => row.id);
}
