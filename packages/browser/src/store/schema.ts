import type { DBSchema, IDBPDatabase } from 'idb';
import { openDB } from 'idb';

/**
 * The IndexedDB schema. The database version plays the part of SQLite's `PRAGMA user_version`:
 * each upgrade step below runs once, in order, inside IndexedDB's versionchange transaction.
 */
export interface WaypostDb extends DBSchema {
  locations: {
    key: number;
    /** `sequence`: the record's number for the delivery ledger (absent on unnumbered records). */
    value: { id?: number; uuid: string; createdAt: number; json: string; sequence?: number };
    indexes: { uuid: string; createdAt: number };
  };
  /** Ids of records uploads hold, as disjoint ranges keyed by their first id (lock-ranges.ts): a few rows. */
  locks: { key: number; value: { from: number; to: number } };
  log: {
    key: number;
    value: { id?: number; timestamp: number; level: number; tag: string; message: string };
    indexes: { timestamp: number };
  };
  kv: { key: string; value: string };
  geofences: { key: string; value: { identifier: string; json: string } };
}

export type Db = IDBPDatabase<WaypostDb>;

const UPGRADES: readonly ((db: IDBPDatabase<WaypostDb>) => void)[] = [
  (db) => {
    const locations = db.createObjectStore('locations', { keyPath: 'id', autoIncrement: true });
    locations.createIndex('uuid', 'uuid');
    locations.createIndex('createdAt', 'createdAt');
    db.createObjectStore('locks');
    const log = db.createObjectStore('log', { keyPath: 'id', autoIncrement: true });
    log.createIndex('timestamp', 'timestamp');
    db.createObjectStore('kv');
    db.createObjectStore('geofences', { keyPath: 'identifier' });
  },
];

export const SCHEMA_VERSION = UPGRADES.length;

/**
 * Opens (and upgrades) the database. A database written by a newer Waypost fails with a VersionError
 * from IndexedDB itself; the caller turns it into a STORE error. An open tab holding an older version
 * is asked to close so that an upgrade in another tab is not blocked forever.
 */
export function openWaypostDb(name: string): Promise<Db> {
  return openDB<WaypostDb>(name, SCHEMA_VERSION, {
    upgrade(db, oldVersion) {
      for (let v = oldVersion; v < SCHEMA_VERSION; v++) UPGRADES[v]!(db);
    },
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
    },
  });
}
