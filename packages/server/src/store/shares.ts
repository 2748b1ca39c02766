import type { SqlCondition } from '../accounts/scope-sql.js';
import type { Queryable } from '../db/database.js';

/** A share link as stored: never its token, only the token's SHA-256. */
export interface ShareRow {
  id: string;
  token_hash: string;
  device_id: string;
  from_ms: number | null;
  to_ms: number | null;
  expires_at: number;
  created_at: number;
  deleted_at: number | null;
}

const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function normalized(row: ShareRow): ShareRow {
  return {
    ...row,
    from_ms: numberOrNull(row.from_ms),
    to_ms: numberOrNull(row.to_ms),
    expires_at: Number(row.expires_at),
    created_at: Number(row.created_at),
    deleted_at: numberOrNull(row.deleted_at),
  };
}

export async function insertShare(db: Queryable, share: Omit<ShareRow, 'deleted_at'>): Promise<void> {
  await db.run(
    `INSERT INTO shares (id, token_hash, device_id, from_ms, to_ms, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [share.id, share.token_hash, share.device_id, share.from_ms, share.to_ms, share.expires_at, share.created_at],
  );
}

export async function shareByTokenHash(db: Queryable, hash: string): Promise<ShareRow | null> {
  const rows = await db.query<ShareRow & Record<string, unknown>>(`SELECT * FROM shares WHERE token_hash = ?`, [hash]);
  return rows[0] ? normalized(rows[0]) : null;
}

/**
 * Share links, newest first (deleted ones too: they say when they stopped working), of one device
 * or of all, within `scope` (accounts/scope-sql.ts) before the limit.
 */
export async function listShares(
  db: Queryable,
  deviceId: string | null,
  limit: number,
  scope: SqlCondition | null,
): Promise<ShareRow[]> {
  const where = [...(deviceId === null ? [] : ['device_id = ?']), ...(scope === null ? [] : [scope.sql])];
  const rows = await db.query<ShareRow & Record<string, unknown>>(
    `SELECT * FROM shares ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY created_at DESC, id LIMIT ?`,
    [...(deviceId === null ? [] : [deviceId]), ...(scope?.params ?? []), limit],
  );
  return rows.map(normalized);
}

/** Ends a share link now: whether there was a live one with this id. */
export async function deleteShare(db: Queryable, id: string, now: number): Promise<boolean> {
  return (await db.run(`UPDATE shares SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL`, [now, id])) > 0;
}

/** The device a share link (live or not) is of, or null for no such share. */
export async function deviceOfShare(db: Queryable, id: string): Promise<string | null> {
  const rows = await db.query<{ device_id: string }>(`SELECT device_id FROM shares WHERE id = ?`, [id]);
  return rows[0]?.device_id ?? null;
}
