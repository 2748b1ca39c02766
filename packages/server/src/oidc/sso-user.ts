import { roleAllows } from '../accounts/roles.js';
import type { Queryable } from '../db/database.js';
import { deleteUserSessions } from '../store/sessions.js';
import { findUser, insertUser, updateUser } from '../store/users.js';
import type { ClaimedUser } from './claims.js';

/**
 * What a single sign-on user's row holds for a password: no scrypt hash, so no password ever
 * matches it (password.ts), and their name ("sso:...") is one the login form refuses anyway.
 */
export const NO_PASSWORD = 'sso';

/**
 * Makes the users row match what the provider said at this login: created at the first, its role
 * and scope replaced at every later one (the provider is the authority). A lower role or another
 * scope ends the user's other sessions, as an owner's change would (routes/users.ts).
 */
export async function syncSsoUser(db: Queryable, user: ClaimedUser & { ok: true }, now: number): Promise<void> {
  const before = await findUser(db, user.name);
  if (!before) {
    const created = await insertUser(db, {
      name: user.name,
      password_hash: NO_PASSWORD,
      role: user.role,
      orgs: user.orgs,
      groups: user.groups,
      created_at: now,
    });
    if (created) return;
  }
  const current = before ?? (await findUser(db, user.name))!;
  await updateUser(db, user.name, { role: user.role, orgs: user.orgs, groups: user.groups }, now);
  const demoted = !roleAllows(user.role, current.role);
  const rescoped =
    JSON.stringify(user.orgs) !== JSON.stringify(current.orgs) ||
    JSON.stringify(user.groups) !== JSON.stringify(current.groups);
  if (demoted || rescoped) await deleteUserSessions(db, user.name);
}
