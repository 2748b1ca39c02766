import type { Queryable } from '../db/database.js';

/**
 * The form two user names are compared in (issue 45): `admin` and `Admin` are one name, as are a
 * name and its compatibility (NFKC: full-width letters) or case-folded forms (`ß` and `SS`: upper
 * then lower case folds them, where lower case alone would not). A single sign-on user's name
 * (`sso:<claim>`) is kept as it is: the provider's subject is case-sensitive by definition, and two
 * of its users are never one.
 */
export function userNameKey(name: string): string {
  if (name.startsWith('sso:')) return name;
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/** Log code of a user whose name clashes with an older one's by case: it cannot log in. */
export const USER_NAME_CLASH = 'USER_NAME_CLASH';

/**
 * Fills the compared form of users made before it was kept (their migration adds the column
 * empty: SQL has no NFKC on SQLite). The oldest of names that differ only by case keeps it; each
 * later one stays without, so no login reaches it (an owner deletes it, docs/accounts.md), its
 * sessions end, and it is returned to be logged. Idempotent, and safe for processes starting together: a key another
 * process took meanwhile is skipped.
 */
export async function fillUserNameKeys(db: Queryable): Promise<{ name: string; clashesWith: string }[]> {
  const rows = await db.query<{ name: string; name_key: string | null }>(
    `SELECT name, name_key FROM users ORDER BY created_at, name`,
  );
  const owner = new Map<string, string>();
  for (const row of rows) if (row.name_key !== null) owner.set(row.name_key, row.name);
  const clashes: { name: string; clashesWith: string }[] = [];
  for (const row of rows) {
    if (row.name_key !== null) continue;
    const key = userNameKey(row.name);
    const taken = owner.get(key);
    if (taken !== undefined) {
      // Its sessions end too: none outlives the login it can no longer make.
      await db.run(`DELETE FROM sessions WHERE user_name = ?`, [row.name]);
      clashes.push({ name: row.name, clashesWith: taken });
      continue;
    }
    try {
      await db.run(`UPDATE users SET name_key = ? WHERE name = ? AND name_key IS NULL`, [key, row.name]);
      owner.set(key, row.name);
    } catch {
      // Another process gave this key to an older name first: this one clashes (told at its start).
    }
  }
  return clashes;
}
