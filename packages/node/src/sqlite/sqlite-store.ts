import Database from 'better-sqlite3';
import type {
  GeofenceRow,
  LogEntry,
  LogQuery,
  NewRecord,
  OrderDirection,
  RecordQuery,
  RemovedRecords,
  Store,
  StoredRecord,
} from '@waypost/sdk/internal';
import { EPOCH_KEY, nextNumber, SEQUENCE_KEY, WaypostError } from '@waypost/sdk/internal';
import { migrate, refuseForeignDatabase } from './migrations.js';
import { openArchive } from './archive-store.js';

/**
 * NORMAL (the default) survives any process crash, SIGKILL included; FULL also survives power
 * loss at the price of an fsync per insert (SQLite's WAL documentation).
 */
export type Durability = 'NORMAL' | 'FULL';

export interface SqliteStoreOptions {
  durability?: Durability;
}

interface RecordRow {
  id: number;
  uuid: string;
  created_at: number;
  locked: number;
  json: string;
}

/** A record row with its lock state: locked when its id is in location_locks. */
const SELECT_WITH_LOCK =
  'SELECT l.id, l.uuid, l.created_at, l.json, k.id IS NOT NULL AS locked FROM locations l LEFT JOIN location_locks k ON k.id = l.id';

const toRecord = (row: RecordRow): StoredRecord => ({
  id: row.id,
  uuid: row.uuid,
  createdAt: row.created_at,
  locked: row.locked === 1,
  json: row.json,
});

/** A removed row's sequence column: null for a record stored unnumbered (or before schema v3). */
type Sequence = number | null;

const removedRecords = (sequences: readonly Sequence[]): RemovedRecords => ({
  count: sequences.length,
  sequences: sequences.filter((s): s is number => s !== null),
});

/** Applies the same pragmas the store uses; exported so benchmarks compare like with like. */
export function configureConnection(db: Database.Database, durability: Durability): void {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability}`);
  db.pragma('busy_timeout = 5000');
}

/** The SDK's store on one SQLite file (or ':memory:'), through better-sqlite3 in WAL mode. */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    refuseForeignDatabase(db);
    configureConnection(db, options.durability ?? 'NORMAL');
    migrate(db);
  } catch (error) {
    db?.close();
    throw new WaypostError('STORE', `Cannot open the Waypost database ${file}: ${(error as Error).message}`);
  }

  const ids = (list: readonly number[]) => JSON.stringify(list);
  const statements = {
    insert: db.prepare('INSERT INTO locations (uuid, created_at, json) VALUES (?, ?, ?)'),
    insertNumbered: db.prepare('INSERT INTO locations (uuid, created_at, json, sequence) VALUES (?, ?, ?, ?)'),
    count: db.prepare('SELECT count(*) FROM locations').pluck(),
    listAsc: db.prepare(`${SELECT_WITH_LOCK} ORDER BY l.id ASC LIMIT ? OFFSET ?`),
    listDesc: db.prepare(`${SELECT_WITH_LOCK} ORDER BY l.id DESC LIMIT ? OFFSET ?`),
    // Locking reads the next unlocked rows, then locks the id range they span (see lockNext).
    nextAsc: db.prepare(`${SELECT_WITH_LOCK} WHERE k.id IS NULL ORDER BY l.id ASC LIMIT ?`),
    nextDesc: db.prepare(`${SELECT_WITH_LOCK} WHERE k.id IS NULL ORDER BY l.id DESC LIMIT ?`),
    lockRange: db.prepare(
      'INSERT OR IGNORE INTO location_locks (id) SELECT id FROM locations WHERE id BETWEEN ? AND ?',
    ),
    remove: db.prepare('DELETE FROM locations WHERE id IN (SELECT value FROM json_each(?))'),
    removeRange: db.prepare('DELETE FROM locations WHERE id BETWEEN ? AND ?'),
    unlock: db.prepare('DELETE FROM location_locks WHERE id IN (SELECT value FROM json_each(?))'),
    unlockRange: db.prepare('DELETE FROM location_locks WHERE id BETWEEN ? AND ?'),
    unlockAll: db.prepare('DELETE FROM location_locks'),
    // Removals without delivery answer each record's sequence (null for unnumbered ones): tombstones.
    removeAll: db.prepare('DELETE FROM locations RETURNING sequence').pluck(),
    removeByUuid: db.prepare('DELETE FROM locations WHERE uuid = ? RETURNING sequence').pluck(),
    // Retention never takes a record locked for an upload (a drop is a drop: it must not be
    // reported dropped and then delivered); the upload settles it, or it is pruned afterwards.
    pruneOlder: db
      .prepare(
        'DELETE FROM locations WHERE created_at < ? AND id NOT IN (SELECT id FROM location_locks) RETURNING sequence',
      )
      .pluck(),
    pruneOverCap: db
      .prepare(
        'DELETE FROM locations WHERE id IN (SELECT id FROM locations WHERE id NOT IN (SELECT id FROM location_locks) ORDER BY id ASC LIMIT max(0, (SELECT count(*) FROM locations) - ?)) RETURNING sequence',
      )
      .pluck(),
    logInsert: db.prepare('INSERT INTO log (timestamp, level, tag, message) VALUES (?, ?, ?, ?)'),
    logReadAsc: db.prepare(
      'SELECT timestamp, level, tag, message FROM log WHERE timestamp BETWEEN ? AND ? ORDER BY id ASC LIMIT ? OFFSET ?',
    ),
    logReadDesc: db.prepare(
      'SELECT timestamp, level, tag, message FROM log WHERE timestamp BETWEEN ? AND ? ORDER BY id DESC LIMIT ? OFFSET ?',
    ),
    logClear: db.prepare('DELETE FROM log'),
    logPrune: db.prepare('DELETE FROM log WHERE timestamp < ?'),
    kvGet: db.prepare('SELECT value FROM kv WHERE key = ?').pluck(),
    kvSet: db.prepare(
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
    kvDelete: db.prepare('DELETE FROM kv WHERE key = ?'),
    geofenceUpsert: db.prepare(
      'INSERT INTO geofences (identifier, json) VALUES (?, ?) ON CONFLICT (identifier) DO UPDATE SET json = excluded.json',
    ),
    geofenceAll: db.prepare('SELECT identifier, json FROM geofences ORDER BY identifier'),
    geofenceRemove: db.prepare('DELETE FROM geofences WHERE identifier IN (SELECT value FROM json_each(?))'),
    geofenceRemoveAll: db.prepare('DELETE FROM geofences'),
  };
  const appendLog = db.transaction((entries: readonly LogEntry[]) => {
    for (const e of entries) statements.logInsert.run(e.timestamp, e.level, e.tag, e.message);
  });
  const upsertGeofences = db.transaction((rows: readonly GeofenceRow[]) => {
    for (const row of rows) statements.geofenceUpsert.run(row.identifier, row.json);
  });
  const prune = db.transaction((rules: { olderThan?: number; maxRecords?: number }) => {
    const sequences: (number | null)[] = [];
    if (rules.olderThan !== undefined) sequences.push(...(statements.pruneOlder.all(rules.olderThan) as Sequence[]));
    if (rules.maxRecords !== undefined && rules.maxRecords >= 0) {
      sequences.push(...(statements.pruneOverCap.all(rules.maxRecords) as Sequence[]));
    }
    return removedRecords(sequences);
  });
  /** See LogQuery: without an order, the newest entries shown oldest first (the tail). */
  const readLog = (query: LogQuery = {}): LogEntry[] => {
    const args = [
      query.start ?? query.since ?? Number.MIN_SAFE_INTEGER,
      query.end ?? Number.MAX_SAFE_INTEGER,
      query.limit ?? -1,
      query.offset ?? 0,
    ];
    if (query.order === 'ASC') return statements.logReadAsc.all(...args) as LogEntry[];
    const newestFirst = statements.logReadDesc.all(...args) as LogEntry[];
    return query.order === 'DESC' ? newestFirst : newestFirst.reverse();
  };
  const list = (query: RecordQuery) => {
    const limit = query.limit === undefined || query.limit < 0 ? -1 : query.limit;
    const statement = query.order === 'DESC' ? statements.listDesc : statements.listAsc;
    return (statement.all(limit, query.offset ?? 0) as RecordRow[]).map(toRecord);
  };
  /**
   * The next `limit` unlocked records, in order, locked. They are the lowest (ASC) or highest (DESC)
   * unlocked ids, so every other row between the first and the last is already locked and one range
   * INSERT OR IGNORE into location_locks locks exactly them. An immediate transaction keeps a second
   * connection from taking the same rows in between.
   */
  const lockNext = db.transaction((limit: number, order: OrderDirection) => {
    const rows = ((order === 'DESC' ? statements.nextDesc : statements.nextAsc).all(limit) as RecordRow[]).map(
      toRecord,
    );
    if (rows.length > 0) {
      const [a, b] = [rows[0]!.id, rows.at(-1)!.id];
      statements.lockRange.run(Math.min(a, b), Math.max(a, b));
    }
    // The rows were read before the lock: report them as what they now are (the store contract).
    for (const row of rows) row.locked = true;
    return rows;
  });
  /**
   * Runs `range` when the ids are exactly the integers from their minimum to their maximum (a batch
   * taken in order from a queue nobody else deleted from), else `list`: the same rows either way.
   */
  const byIds = (list: readonly number[], range: Database.Statement, each: Database.Statement): number => {
    let min = Infinity;
    let max = -Infinity;
    for (const id of list) {
      if (id < min) min = id;
      if (id > max) max = id;
    }
    if (list.length > 0 && max - min + 1 === list.length && new Set(list).size === list.length) {
      return range.run(min, max).changes;
    }
    return each.run(ids(list)).changes;
  };

  const removeLocked = db.transaction((list: readonly number[]) => {
    const removed = byIds(list, statements.removeRange, statements.remove);
    byIds(list, statements.unlockRange, statements.unlock);
    return removed;
  });
  const removeAll = db.transaction(() => {
    statements.unlockAll.run();
    return removedRecords(statements.removeAll.all() as Sequence[]);
  });

  // The counter and the record in one transaction: a crash keeps both or neither.
  const insertNumbered = db.transaction(
    (make: (sequence: number, epoch: string | null) => NewRecord, makeEpoch?: () => string) => {
      const { sequence, epoch, newEpoch } = nextNumber(
        statements.kvGet.get(SEQUENCE_KEY) as string | undefined,
        statements.kvGet.get(EPOCH_KEY) as string | undefined,
        makeEpoch,
      );
      const record = make(sequence, epoch);
      if (newEpoch !== null) statements.kvSet.run(EPOCH_KEY, newEpoch);
      statements.kvSet.run(SEQUENCE_KEY, String(sequence));
      statements.insertNumbered.run(record.uuid, record.createdAt, record.json, sequence);
      return sequence;
    },
  );

  return {
    archive: openArchive(db),
    locations: {
      insert: async (record: NewRecord) =>
        Number(statements.insert.run(record.uuid, record.createdAt, record.json).lastInsertRowid),
      insertNumbered: async (make, makeEpoch) => insertNumbered(make, makeEpoch),
      count: async () => statements.count.get() as number,
      list: async (query) => list(query),
      lockNext: async (limit, order) => lockNext.immediate(limit, order),
      // A delivered record's lock goes with it (ids are never reused: AUTOINCREMENT).
      remove: async (list) => removeLocked(list),
      unlock: async (list) => void byIds(list, statements.unlockRange, statements.unlock),
      unlockAll: async () => statements.unlockAll.run().changes,
      removeAll: async () => removeAll(),
      removeByUuid: async (uuid) => removedRecords(statements.removeByUuid.all(uuid) as Sequence[]),
      prune: async (rules) => prune(rules),
    },
    log: {
      append: async (entries) => void appendLog(entries),
      read: async (query) => readLog(query),
      clear: async () => void statements.logClear.run(),
      prune: async (olderThan) => statements.logPrune.run(olderThan).changes,
    },
    kv: {
      get: async (key) => (statements.kvGet.get(key) as string | undefined) ?? undefined,
      set: async (key, value) => void statements.kvSet.run(key, value),
      delete: async (key) => void statements.kvDelete.run(key),
    },
    geofences: {
      upsert: async (rows) => void upsertGeofences(rows),
      all: async () => statements.geofenceAll.all() as GeofenceRow[],
      remove: async (identifiers) => statements.geofenceRemove.run(JSON.stringify(identifiers)).changes,
      removeAll: async () => statements.geofenceRemoveAll.run().changes,
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}
