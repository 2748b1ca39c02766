import type { Queryable } from '../db/database.js';

/**
 * Refresh tokens rotate: each use issues the next one of the same family (the chain that started
 * with one registration). Rows made before families existed have none: they are their own family.
 */
const FAMILY = 'COALESCE(family, token_hash)';

export async function insertRefreshToken(
  db: Queryable,
  token: { hash: string; deviceId: string; family: string },
  now: number,
  expiresAt: number,
): Promise<void> {
  await db.run(
    `INSERT INTO refresh_tokens (token_hash, device_id, family, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
    [token.hash, token.deviceId, token.family, now, expiresAt],
  );
}

/**
 * Uses a refresh token once: its device and family, or null when unknown, used, revoked or expired.
 * One UPDATE guarded by `used_at IS NULL`: of concurrent uses exactly one wins, on both databases.
 */
export async function consumeRefreshToken(
  db: Queryable,
  hash: string,
  now: number,
): Promise<{ deviceId: string; family: string } | null> {
  const rows = await db.query<{ device_id: string; family: string }>(
    `UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
     RETURNING device_id, ${FAMILY} AS family`,
    [now, hash, now],
  );
  return rows[0] ? { deviceId: rows[0].device_id, family: rows[0].family } : null;
}

/** A token that was already used: when, and its family (for reuse detection). */
export async function findUsedRefreshToken(
  db: Queryable,
  hash: string,
): Promise<{ usedAt: number; family: string } | null> {
  const rows = await db.query<{ used_at: number | string; family: string }>(
    `SELECT used_at, ${FAMILY} AS family FROM refresh_tokens WHERE token_hash = ? AND used_at IS NOT NULL`,
    [hash],
  );
  return rows[0] ? { usedAt: Number(rows[0].used_at), family: rows[0].family } : null;
}

/** Revokes every token of a family (the stolen one, and all that were issued after it). */
export async function revokeRefreshFamily(db: Queryable, family: string, now: number): Promise<number> {
  return db.run(`UPDATE refresh_tokens SET revoked_at = ? WHERE ${FAMILY} = ? AND revoked_at IS NULL`, [now, family]);
}

export async function revokeRefreshToken(db: Queryable, hash: string, now: number): Promise<boolean> {
  return (
    (await db.run(`UPDATE refresh_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`, [
      now,
      hash,
    ])) > 0
  );
}

/**
 * Revokes a device's refresh tokens, and its access tokens issued until now: an upload with one is
 * refused at once (401 TOKEN_REVOKED), not only once it expires.
 */
export async function revokeDeviceTokens(db: Queryable, deviceId: string, now: number): Promise<number> {
  await db.run(`UPDATE devices SET tokens_revoked_at = ? WHERE id = ?`, [now, deviceId]);
  return db.run(`UPDATE refresh_tokens SET revoked_at = ? WHERE device_id = ? AND revoked_at IS NULL`, [now, deviceId]);
}

/** Whether any of the device's refresh tokens was revoked at or after `since` (epoch ms). */
export async function revokedSince(db: Queryable, deviceId: string, since: number): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 AS revoked FROM refresh_tokens WHERE device_id = ? AND revoked_at >= ? LIMIT 1`,
    [deviceId, since],
  );
  return rows.length > 0;
}
