import type { Queryable } from '../db/database.js';
import { normalize, type StoredUser, type UserRow } from './users.js';

/** Dashboard sessions, by the hash of their id (a stolen database holds no usable cookie). */
export async function insertSession(
  db: Queryable,
  idHash: string,
  now: number,
  expiresAt: number,
  userName: string | null = null,
): Promise<void> {
  // Expired sessions go whenever a new one starts: the table stays as small as the live ones.
  await db.run(`DELETE FROM sessions WHERE expires_at <= ?`, [now]);
  await db.run(`INSERT INTO sessions (id_hash, created_at, expires_at, user_name) VALUES (?, ?, ?, ?)`, [
    idHash,
    now,
    expiresAt,
    userName,
  ]);
}

/**
 * The live session of this id and its user's row, in one query (the caller of a request is looked
 * up once): `user` null for an admin-token session, `account` null when the user is gone; null
 * when there is no live session.
 */
export async function liveSession(
  db: Queryable,
  idHash: string,
  now: number,
): Promise<{ user: string | null; account: UserRow | null } | null> {
  const rows = await db.query<StoredUser & { session_user: string | null }>(
    `SELECT s.user_name AS session_user, u.* FROM sessions s LEFT JOIN users u ON u.name = s.user_name
     WHERE s.id_hash = ? AND s.expires_at > ?`,
    [idHash, now],
  );
  const row = rows[0];
  if (!row) return null;
  return { user: row.session_user ?? null, account: row.name ? normalize(row) : null };
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.run(`DELETE FROM sessions WHERE id_hash = ?`, [idHash]);
}

/** Ends every session of a user (removed, demoted, password reset), but `keepIdHash`'s when given. */
export async function deleteUserSessions(
  db: Queryable,
  userName: string,
  keepIdHash: string | null = null,
): Promise<number> {
  return db.run(`DELETE FROM sessions WHERE user_name = ? AND id_hash <> ?`, [userName, keepIdHash ?? '']);
}
