import type { Queryable } from '../db/database.js';

/** Dashboard sessions, by the hash of their id (a stolen database holds no usable cookie). */
export async function insertSession(db: Queryable, idHash: string, now: number, expiresAt: number): Promise<void> {
  // Expired sessions go whenever a new one starts: the table stays as small as the live ones.
  await db.run(`DELETE FROM sessions WHERE expires_at <= ?`, [now]);
  await db.run(`INSERT INTO sessions (id_hash, created_at, expires_at) VALUES (?, ?, ?)`, [idHash, now, expiresAt]);
}

export async function sessionIsLive(db: Queryable, idHash: string, now: number): Promise<boolean> {
  const rows = await db.query(`SELECT 1 AS live FROM sessions WHERE id_hash = ? AND expires_at > ?`, [idHash, now]);
  return rows.length > 0;
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.run(`DELETE FROM sessions WHERE id_hash = ?`, [idHash]);
}
