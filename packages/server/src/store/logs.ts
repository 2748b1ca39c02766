import type { SqlCondition } from '../accounts/scope-sql.js';
import type { Queryable } from '../db/database.js';

export interface LogRow {
  id: number;
  device_id: string | null;
  fields: string;
  content: Buffer;
  size: number;
  created_at: number;
}

export async function insertLog(
  db: Queryable,
  log: { deviceId: string | null; fields: Record<string, string>; content: Buffer },
  now: number,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO logs (device_id, fields, content, size, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
    [log.deviceId, JSON.stringify(log.fields), log.content, log.content.length, now],
  );
  return rows[0]!.id;
}

/** The uploaded logs, newest first, within `scope` (accounts/scope-sql.ts; null: all). */
export async function listLogs(db: Queryable, scope: SqlCondition | null = null): Promise<Omit<LogRow, 'content'>[]> {
  return db.query(
    `SELECT id, device_id, fields, size, created_at FROM logs ${scope ? `WHERE ${scope.sql}` : ''} ORDER BY id DESC`,
    scope?.params ?? [],
  ) as Promise<Omit<LogRow, 'content'>[]>;
}

export async function findLog(db: Queryable, id: number): Promise<LogRow | null> {
  const rows = await db.query<LogRow & Record<string, unknown>>(`SELECT * FROM logs WHERE id = ?`, [id]);
  return rows[0] ?? null;
}
