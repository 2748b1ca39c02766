import type { Database, Queryable, Row } from '../db/database.js';
import { HttpError } from '../errors.js';

/**
 * The fleet configuration (geofences, sinks) is versioned so that every process decides with the
 * same one (issue 30): a change bumps the version in its transaction, and every transaction that
 * decides events reads the version first and decides with the rows of that version. What keeps
 * them ordered (issue 41): such a transaction commits only if the version is still the one it
 * read, checked in COMMIT's own round trip, under this advisory lock taken shared; a change takes it
 * exclusively, also in its COMMIT's round trip, right before it bumps the version. So no commit of
 * an upload can fall between a change's bump and its commit, and an upload that read the version
 * before a change committed is decided again with the new one: every upload committed after a
 * change was decided with it, whichever process took it.
 *
 * Neither side holds the lock while its process runs code: it is taken and released by PostgreSQL
 * within one message of the client. A host stopped mid-upload (frozen, cut off) holds its devices'
 * rows and nothing else, so a change and every other host's uploads go on. The key is per schema
 * (the second half is the schema's hash): several fleets on one database never wait on each other.
 * On SQLite the write lock (BEGIN IMMEDIATE) already orders every transaction.
 */
const CONFIG_LOCK = `7410421, hashtext(current_schema())`; // also in fleet_config_still (migrations.ts)

/** What a deciding transaction runs right after BEGIN (one round trip with it, one read by key). */
export const READ_VERSION = `SELECT version FROM fleet_config WHERE id = 1`;

/** The version READ_VERSION read. */
export function versionOf(begun: readonly Row[]): number {
  const version = begun[0]?.['version'];
  if (version === undefined || version === null) throw new Error('fleet_config has no version row');
  return Number(version);
}

/** PostgreSQL's code for "could not serialize" (fleet_config_still raises it): run the transaction again. */
const CONFIG_MOVED = '40001';

/**
 * Run right before COMMIT (same round trip): takes CONFIG_LOCK shared and fails with CONFIG_MOVED
 * when a change committed since `version` (the function is db/migrations.ts's, issue 41).
 */
const stillAt = (version: number): string => `SELECT fleet_config_still(${Math.trunc(version)})`;

/** A change's last statements, right before COMMIT (same round trip on PostgreSQL). */
const BUMP: Record<Database['dialect'], string> = {
  postgres: `SELECT pg_advisory_xact_lock(${CONFIG_LOCK}); UPDATE fleet_config SET version = version + 1 WHERE id = 1`,
  sqlite: `UPDATE fleet_config SET version = version + 1 WHERE id = 1`,
};

/** Decisions run again at most this often when changes keep committing under them (changes are an admin's, rare). */
const MAX_ATTEMPTS = 5;

/**
 * Runs `decide` in a transaction with the configuration at the version it read (`decide` asks the
 * FleetConfigCache for it). On PostgreSQL, when a change committed meanwhile, nothing is kept and
 * `decide` runs again in a new transaction, with the new version.
 */
export async function decideWithConfig<T>(
  db: Database,
  decide: (tx: Queryable, version: number) => Promise<T>,
): Promise<T> {
  const end = db.dialect === 'postgres' ? { end: (begun: Row[]) => stillAt(versionOf(begun)) } : {};
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx, begun) => decide(tx, versionOf(begun)), { begin: READ_VERSION, ...end });
    } catch (error) {
      if ((error as { code?: string }).code !== CONFIG_MOVED) throw error;
      if (attempt >= MAX_ATTEMPTS)
        throw new HttpError(
          503,
          'FLEET_CONFIG_BUSY',
          `the fleet configuration changed ${MAX_ATTEMPTS} times while this was decided; nothing was stored, try again`,
          {},
          { 'retry-after': '1' },
        );
    }
  }
}

/**
 * How long a change waits for a lock. It waits for no upload (see above), only for rows another
 * change or a delivery holds; bounded all the same, so an admin gets an answer.
 */
const CHANGE_LOCK_TIMEOUT = '5s';

/** Runs a change of the geofences or sinks in a transaction that bumps the version. */
export async function changeFleetConfig<T>(db: Database, change: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(
      async (tx) => {
        if (db.dialect === 'postgres') await tx.query(`SET LOCAL lock_timeout = '${CHANGE_LOCK_TIMEOUT}'`);
        return change(tx);
      },
      { end: () => BUMP[db.dialect] },
    );
  } catch (error) {
    // lock_not_available: nothing was changed; the caller may try again.
    if ((error as { code?: string }).code === '55P03')
      throw new HttpError(
        503,
        'FLEET_CONFIG_BUSY',
        `the fleet configuration's rows were held for ${CHANGE_LOCK_TIMEOUT}; nothing was changed, try again`,
        {},
        { 'retry-after': '1' },
      );
    throw error;
  }
}
