import BetterSqlite3 from 'better-sqlite3';
import type { Database, Queryable, Row, SqlValue, TransactionOptions } from './database.js';
import { startCheckpointer, type Checkpointer, type CheckpointOptions } from './wal-checkpointer.js';

/**
 * SQLite through better-sqlite3. The driver is synchronous, but transactions take async callbacks
 * (the same code runs on PostgreSQL), so transactions are queued: one at a time on the connection.
 */
/**
 * Opens the file, refusing one that holds another program's tables (a device's queue given as
 * --database by mistake) before anything is changed in it, and naming the file in every failure.
 */
function openOwnFile(file: string): BetterSqlite3.Database {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(file);
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    if (tables.length > 0 && !tables.includes('schema_migrations')) {
      const shown = tables.sort().slice(0, 5).join(', ') + (tables.length > 5 ? ', ...' : '');
      throw new Error(`it is not a Waypost server database: it holds another program's tables (${shown})`);
    }
    return db;
  } catch (error) {
    db?.close();
    throw new Error(`Cannot open the database ${file}: ${(error as Error).message}`, { cause: error });
  }
}

// Where no checkpoint thread runs (it failed): every ~32 MB of WAL instead of ~4 MB, since the pages
// every ingest rewrites (devices, index roots) are copied back once per checkpoint.
const FALLBACK_AUTOCHECKPOINT = 'wal_autocheckpoint = 8000';

/**
 * The WAL is checkpointed by a worker thread on a connection of its own (db/wal-checkpointer.ts),
 * never by a commit: a checkpoint copies megabytes and fsyncs, which on this connection would stop
 * the event loop (72 ms once per bench round of 20,000 records, issue 43). Durability is the WAL's
 * either way: a commit is in the WAL before it is acknowledged, and a crash before the checkpoint
 * replays it at the next open. ':memory:' and '' (temporary) databases have no WAL and no thread.
 */
function startWalCheckpoints(
  db: BetterSqlite3.Database,
  file: string,
  options: CheckpointOptions,
): Checkpointer | null {
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  const fallBack = (message: string): void => {
    if (!db.open) return;
    db.pragma(FALLBACK_AUTOCHECKPOINT);
    process.emitWarning(`SQLite checkpoints of ${file} are back on the server's connection: ${message}`);
  };
  try {
    db.pragma('wal_autocheckpoint = 0');
    return startCheckpointer(file, options, fallBack);
  } catch (error) {
    // No thread (a process out of threads or memory): the server runs, checkpointing as it did.
    fallBack((error as Error).message);
    return null;
  }
}

export function openSqlite(file: string, checkpoints: CheckpointOptions = {}): Database {
  const db = openOwnFile(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(FALLBACK_AUTOCHECKPOINT);
  db.pragma('foreign_keys = ON');
  const checkpointer = startWalCheckpoints(db, file, checkpoints);
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string): BetterSqlite3.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const queryable: Queryable = {
    dialect: 'sqlite',
    async query<T extends Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
      const statement = prepare(sql);
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    },
    async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
      return prepare(sql).run(...params).changes;
    },
    async runEach(sql: string, runs: number, paramsOf: (run: number) => readonly SqlValue[]): Promise<number[]> {
      const statement = prepare(sql);
      const changes = new Array<number>(runs);
      // Spread, not the array itself: better-sqlite3 binds arguments faster than an array's elements.
      for (let run = 0; run < runs; run++) changes[run] = statement.run(...paramsOf(run)).changes;
      return changes;
    },
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ...queryable,
    transaction<T>(fn: (tx: Queryable, begun: Row[]) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const result = queue.then(async () => {
        const walReused = checkpointer?.beforeWrite();
        if (walReused) await walReused;
        prepare('BEGIN IMMEDIATE').run();
        try {
          // One statement here (SQLite prepares one at a time); the write lock is already held.
          const begun = options.begin ? (prepare(options.begin).all() as Row[]) : [];
          const value = await fn(queryable, begun);
          if (options.end) prepare(options.end(begun)).run();
          prepare('COMMIT').run();
          return value;
        } catch (error) {
          if (db.inTransaction) prepare('ROLLBACK').run();
          throw error;
        }
      });
      queue = result.catch(() => undefined);
      return result;
    },
    async close(): Promise<void> {
      await queue;
      // The thread's connection first: closing the last connection folds the WAL in and removes it.
      await checkpointer?.stop();
      db.close();
    },
  };
}
