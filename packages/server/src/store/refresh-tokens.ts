import type { Queryable } from '../db/database.js';

export async function insertRefreshToken(
  db: Queryable,
  hash: string,
  deviceId: string,
  now: number,
  expiresAt: number,
): Promise<void> {
  await db.run(`INSERT INTO refresh_tokens (token_hash, device_id, created_at, expires_at) VALUES (?, ?, ?, ?)`, [
    hash,
    deviceId,
    now,
    expiresAt,
  ]);
}

/** Uses a refresh token once: the device it belongs to, or null when unknown, used, revoked or expired. */
export async function consumeRefreshToken(db: Queryable, hash: string, now: number): Promise<string | null> {
  const rows = await db.query<{ device_id: string }>(
    `UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
     RETURNING device_id`,
    [now, hash, now],
  );
  return rows[0]?.device_id ?? null;
}

export async function revokeRefreshToken(db: Queryable, hash: string, now: number): Promise<boolean> {
  return (
    (await db.run(`UPDATE refresh_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`, [
      now,
      hash,
    ])) > 0
  );
}

export async function revokeDeviceTokens(db: Queryable, deviceId: string, now: number): Promise<number> {
  return db.run(`UPDATE refresh_tokens SET revoked_at = ? WHERE device_id = ? AND revoked_at IS NULL`, [now, deviceId]);
}
