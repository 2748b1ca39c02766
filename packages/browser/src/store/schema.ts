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
    value: LogRow;
    indexes: { timestamp: number };
  };
  kv: { key: string; value: string };
  geofences: { key: string; value: { identifier: string; json: string } };
  /**
   * The receipt archive (issue 46): delivered records a server receipted. `stream` is
   * [url, epoch or '', sequence] (IndexedDB keys cannot be null), the key of find().
   */
  archive: {
    key: number;
    value: {
      id?: number;
      receiptId: number;
      uuid: string;
      json: string;
      sequence: number;
      archivedAt: number;
      stream: [string, string, number];
    };
    indexes: { stream: [string, string, number]; archivedAt: number };
  };
  receipts: {
    key: number;
    value: { id?: number; url: string; epoch: string | null; ranges: [number, number][]; receipt: string; at: number };
    indexes: { at: number };
  };
}

export type Db = IDBPDatabase<WaypostDb>;

/** A log row: one append()'s entries (v3), or one entry as rows were before. `timestamp`: the earliest. */
export type LogRow = { id?: number; timestamp: number } & (
  | { level: number; tag: string; message: string }
  | { entries: { timestamp: number; level: number; tag: string; message: string }[] }
);

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
  // v2: the receipt archive (issue 46).
  (db) => {
    const archive = db.createObjectStore('archive', { keyPath: 'id', autoIncrement: true });
    archive.createIndex('stream', 'stream');
    archive.createIndex('archivedAt', 'archivedAt');
    const receipts = db.createObjectStore('receipts', { keyPath: 'id', autoIncrement: true });
    receipts.createIndex('at', 'at');
  },
  // v3 (issue 43), no new store: what is written changed, and a v2 SDK would misread it. The
  // sequence counter may be ahead of kv's in the last numbered row (numbering.ts; a v2 SDK would
  // number again from kv's), and a log row holds a batch of entries (log-store.ts). Opening at v3
  // keeps a v2 SDK out (VersionError) and closes the connections of tabs still running one.
  () => undefined,
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
