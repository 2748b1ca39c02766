import type { Queryable } from '../db/database.js';

export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
  expires_at: number;
}

/** Keeps a login under way, under the hash of its browser cookie; those expired go at the same time. */
export async function savePendingLogin(db: Queryable, idHash: string, login: PendingLogin, now: number): Promise<void> {
  await db.run(`DELETE FROM oidc_logins WHERE expires_at <= ?`, [now]);
  await db.run(`INSERT INTO oidc_logins (id_hash, state, nonce, verifier, expires_at) VALUES (?, ?, ?, ?, ?)`, [
    idHash,
    login.state,
    login.nonce,
    login.verifier,
    login.expires_at,
  ]);
}

/** Takes a login under way (one use: it is removed whether or not the callback then succeeds). */
export async function takePendingLogin(db: Queryable, idHash: string, now: number): Promise<PendingLogin | null> {
  const rows = await db.query<PendingLogin & Record<string, unknown>>(
    `DELETE FROM oidc_logins WHERE id_hash = ? RETURNING state, nonce, verifier, expires_at`,
    [idHash],
  );
  const row = rows[0];
  return row && Number(row.expires_at) > now ? row : null;
}
