import type { Database, Queryable, Row } from '../db/database.js';
import { HttpError } from '../errors.js';

/**
 * The fleet configuration (geofences, sinks) is versioned so that every process decides with the
 * same one (issue 30). A change takes this advisory lock exclusively, changes the rows and bumps
 * the version in one transaction; every ingest transaction takes it shared and reads the version
 * first. So on PostgreSQL a change waits for the uploads already deciding, and an upload that
 * starts meanwhile waits for the change and then reads its version: every upload committed after
 * a change was decided with it, whichever process took it. Shared advisory locks live in the lock
 * manager's memory (no row is written, nothing is logged), so uploads do not queue on each other.
 * On SQLite the write lock (BEGIN IMMEDIATE) already orders every transaction.
 */
const CONFIG_LOCK = 7410421;

/** What an ingest transaction runs right after BEGIN (one round trip with it, one read by key). */
export const READ_VERSION: Record<Database['dialect'], string> = {
  postgres: `SELECT pg_advisory_xact_lock_shared(${CONFIG_LOCK}); SELECT version FROM fleet_config WHERE id = 1`,
  sqlite: `SELECT version FROM fleet_config WHERE id = 1`,
};

/** The version READ_VERSION read. */
export function versionOf(begun: readonly Row[]): number {
  const version = begun[0]?.['version'];
  if (version === undefined || version === null) throw new Error('fleet_config has no version row');
  return Number(version);
}

/**
 * How long a change waits for the uploads deciding now. Uploads that start meanwhile queue behind
 * it, so it is bounded: an upload stuck on a host cut off from the network keeps its shared lock
 * until PostgreSQL ends its session (idle_in_transaction_session_timeout, db/postgres.ts).
 */
const CHANGE_LOCK_TIMEOUT = '5s';

/** Runs a change of the geofences or sinks in a transaction that bumps the version. */
export async function changeFleetConfig<T>(db: Database, change: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      if (db.dialect === 'postgres') {
        await tx.query(`SET LOCAL lock_timeout = '${CHANGE_LOCK_TIMEOUT}'`);
        await tx.query(`SELECT pg_advisory_xact_lock(${CONFIG_LOCK})`);
      }
      const value = await change(tx);
      await tx.run(`UPDATE fleet_config SET version = version + 1 WHERE id = 1`);
      return value;
    });
  } catch (error) {
    // lock_not_available: nothing was changed; the caller may try again.
    if ((error as { code?: string }).code === '55P03')
      throw new HttpError(
        503,
        'FLEET_CONFIG_BUSY',
        `uploads in progress held the fleet configuration for ${CHANGE_LOCK_TIMEOUT}; nothing was changed, try again`,
        {},
        { 'retry-after': '1' },
      );
    throw error;
  }
}
