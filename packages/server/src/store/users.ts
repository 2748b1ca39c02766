import type { Queryable } from '../db/database.js';
import type { Role } from '../accounts/roles.js';
import { userNameKey } from '../accounts/user-name-key.js';

export interface UserRow {
  name: string;
  password_hash: string;
  role: Role;
  /** The orgs the user is limited to, or null for every device. */
  orgs: string[] | null;
  /** The device groups the user is limited to (with their orgs' devices), or null. */
  groups: string[] | null;
  created_at: number;
  updated_at: number;
}

export type StoredUser = Omit<UserRow, 'orgs' | 'groups'> & {
  orgs: string | null;
  device_groups: string | null;
} & Record<string, unknown>;
const list = (value: string | null | undefined): string[] | null => (value ? (JSON.parse(value) as string[]) : null);

/** A users row as read (orgs and groups stored as JSON text) made a UserRow. */
export const normalize = (row: StoredUser): UserRow => ({
  name: row.name,
  password_hash: row.password_hash,
  role: row.role,
  orgs: list(row.orgs),
  groups: list(row.device_groups),
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
});

/** The user of exactly this name (a session's, a route's): what the users list shows. */
export async function findUser(db: Queryable, name: string): Promise<UserRow | null> {
  const rows = await db.query<StoredUser>(`SELECT * FROM users WHERE name = ?`, [name]);
  return rows[0] ? normalize(rows[0]) : null;
}

/** The user a login names, whatever its case or Unicode form (`Admin` logs in as `admin`). */
export async function findUserToLogIn(db: Queryable, typed: string): Promise<UserRow | null> {
  const rows = await db.query<StoredUser>(`SELECT * FROM users WHERE name_key = ?`, [userNameKey(typed)]);
  return rows[0] ? normalize(rows[0]) : null;
}

export async function listUsers(db: Queryable): Promise<UserRow[]> {
  return (await db.query<StoredUser>(`SELECT * FROM users ORDER BY name`)).map(normalize);
}

/** Adds a user; false when the name is taken, in any case or Unicode form (its name_key). */
export async function insertUser(db: Queryable, user: Omit<UserRow, 'updated_at'>): Promise<boolean> {
  const inserted = await db.run(
    `INSERT INTO users (name, name_key, password_hash, role, orgs, device_groups, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
    [
      user.name,
      userNameKey(user.name),
      user.password_hash,
      user.role,
      user.orgs && JSON.stringify(user.orgs),
      user.groups && JSON.stringify(user.groups),
      user.created_at,
      user.created_at,
    ],
  );
  return inserted > 0;
}

export async function updateUser(
  db: Queryable,
  name: string,
  change: { role?: Role; password_hash?: string; orgs?: string[] | null; groups?: string[] | null },
  now: number,
): Promise<void> {
  if (change.role !== undefined) await db.run(`UPDATE users SET role = ? WHERE name = ?`, [change.role, name]);
  if (change.password_hash !== undefined) {
    await db.run(`UPDATE users SET password_hash = ? WHERE name = ?`, [change.password_hash, name]);
  }
  if (change.orgs !== undefined) {
    await db.run(`UPDATE users SET orgs = ? WHERE name = ?`, [change.orgs && JSON.stringify(change.orgs), name]);
  }
  if (change.groups !== undefined) {
    const groups = change.groups && JSON.stringify(change.groups);
    await db.run(`UPDATE users SET device_groups = ? WHERE name = ?`, [groups, name]);
  }
  await db.run(`UPDATE users SET updated_at = ? WHERE name = ?`, [now, name]);
}

export async function deleteUser(db: Queryable, name: string): Promise<boolean> {
  return (await db.run(`DELETE FROM users WHERE name = ?`, [name])) > 0;
}

/** What the API shows of a user: never its hash. */
export function userJson(row: UserRow) {
  return {
    name: row.name,
    role: row.role,
    orgs: row.orgs,
    groups: row.groups,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
