import type Database from 'better-sqlite3';

/**
 * The schema, one entry per version. `PRAGMA user_version` records how many have run; a database
 * written by a newer Waypost is refused rather than misread.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE locations (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     uuid TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     locked INTEGER NOT NULL DEFAULT 0,
     json TEXT NOT NULL
   );
   CREATE INDEX locations_created_at ON locations (created_at);
   CREATE TABLE log (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     timestamp INTEGER NOT NULL,
     level INTEGER NOT NULL,
     tag TEXT NOT NULL,
     message TEXT NOT NULL
   );
   CREATE INDEX log_timestamp ON log (timestamp);
   CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE geofences (identifier TEXT PRIMARY KEY, json TEXT NOT NULL);`,
  // v2: locks move to their own table of ids. Flagging a column rewrote every large record row of a
  // batch (its whole JSON) only to delete it a moment later; a lock row is a few bytes.
  `CREATE TABLE location_locks (id INTEGER PRIMARY KEY);
   INSERT INTO location_locks (id) SELECT id FROM locations WHERE locked = 1;
   ALTER TABLE locations DROP COLUMN locked;`,
  // v3: each record's sequence number (the delivery ledger) beside it, so a record removed without
  // delivery (retention, destroy) is reported to the server by number. Older rows have none.
  `ALTER TABLE locations ADD COLUMN sequence INTEGER;`,
  // v4: the receipt archive (issue 46): delivered records a server receipted, kept for a window,
  // with the receipts; archive_bytes is the running total of archived JSON, kept so the byte cap
  // never has to sum the table.
  `CREATE TABLE receipts (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     url TEXT NOT NULL,
     epoch TEXT,
     ranges TEXT NOT NULL,
     receipt TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE TABLE archive (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     receipt_id INTEGER NOT NULL,
     uuid TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     json TEXT NOT NULL,
     archived_at INTEGER NOT NULL
   );
   CREATE INDEX archive_sequence ON archive (sequence);
   CREATE INDEX archive_archived_at ON archive (archived_at);
   CREATE INDEX receipts_at ON receipts (at);
   CREATE TABLE archive_bytes (one INTEGER PRIMARY KEY CHECK (one = 1), bytes INTEGER NOT NULL);
   INSERT INTO archive_bytes (one, bytes) VALUES (1, 0);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * A file at schema version 0 that already holds tables belongs to another program (the Waypost
 * server's database given to `waypost queue` by mistake, say): creating the SDK's tables in it, or
 * switching it to WAL, would change someone else's data. Called before anything is written.
 */
export function refuseForeignDatabase(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) !== 0) return;
  const tables = (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  if (tables.length === 0) return;
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', ...' : '');
  throw new Error(
    `it is not a Waypost device database: it holds another program's tables (${shown}); nothing was changed`,
  );
}

export function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `This database has schema version ${version}, newer than this Waypost's ${SCHEMA_VERSION}; upgrade @waypost/node to open it.`,
    );
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
