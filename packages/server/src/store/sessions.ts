import type { Queryable } from '../db/database.js';

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

/** The live session of this id: its user's name (null: an admin-token session), or undefined when none. */
export async function liveSession(db: Queryable, idHash: string, now: number): Promise<{ user: string | null } | null> {
  const rows = await db.query<{ user_name: string | null }>(
    `SELECT user_name FROM sessions WHERE id_hash = ? AND expires_at > ?`,
    [idHash, now],
  );
  return rows[0] ? { user: rows[0].user_name ?? null } : null;
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
