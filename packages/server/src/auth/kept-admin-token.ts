import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Database } from '../db/database.js';

const SETTING = 'admin.token';
/** A token file longer than this is not one of ours. */
const MAX_TOKEN_CHARS = 512;

export interface KeptAdminToken {
  token: string;
  /** Where it is kept, for the start-up message; null when it lives only in this process. */
  keptIn: string | null;
}

const generate = (): string => randomBytes(24).toString('base64url');

/** `<database>.admin-token`, owner-only (0600): read when it is there, else made. */
function fromFile(database: string): KeptAdminToken {
  const path = `${database}.admin-token`;
  try {
    writeFileSync(path, `${generate()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Made by an earlier start (or another process starting now): a copy with a looser mode (a
    // restore from backup) is made owner-only again, since the token is the admin's password.
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
  const token = readFileSync(path, 'utf8').trim();
  if (token === '' || token.length > MAX_TOKEN_CHARS || /\s/.test(token)) {
    throw new Error(`${path} does not hold an admin token: delete it to have a new one made, or pass --admin-token`);
  }
  return { token, keptIn: path };
}

/**
 * The admin token when none is given: generated once and kept, so that a restart keeps the
 * dashboard login and the admin's scripts working. SQLite: in a file beside the database, owner
 * only. PostgreSQL: in the database's settings table, so every process sharing it accepts the same
 * token (processes starting together race on the insert and all read the winner). In memory: a new
 * one per start.
 */
export async function keptAdminToken(
  db: Database,
  storage: { databaseUrl: string | null; database: string },
): Promise<KeptAdminToken> {
  if (storage.databaseUrl) {
    await db.run(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [SETTING, generate()]);
    const [row] = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [SETTING]);
    return { token: row!.value, keptIn: 'the database (settings table, key admin.token)' };
  }
  if (storage.database === ':memory:' || storage.database === '') return { token: generate(), keptIn: null };
  return fromFile(storage.database);
}
