import type { ServerOptions } from '@waypost/server';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { openSqlite } from '../../src/db/sqlite.js';

/**
 * A test server's storage opened directly, without a server: for upgrade tests that build the
 * schema of an earlier version (`migrate(db, version)`) before a server migrates the rest.
 */
export async function openStorage(storage: ServerOptions): Promise<Database> {
  return storage.databaseUrl ? openPostgres(storage.databaseUrl, undefined, 2) : openSqlite(storage.database!);
}
