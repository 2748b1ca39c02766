import type {
  GeofenceRow,
  LogEntry,
  NewRecord,
  OrderDirection,
  RecordQuery,
  RemovedRecords,
  Store,
  StoredRecord,
} from '../ports/store.js';
import { SEQUENCE_KEY } from '../ports/store.js';
import { EPOCH_KEY, nextNumber } from '../ledger/epoch.js';
import { createMemoryArchive } from './memory-archive.js';

const emptyRemoved = (): RemovedRecords => ({ count: 0, sequences: [] });

function ordered(records: Iterable<StoredRecord>, order: OrderDirection): StoredRecord[] {
  const list = [...records];
  return order === 'ASC' ? list : list.reverse();
}

/**
 * The store contract in memory: for tests and for hosts without SQLite. The same contract suite
 * runs against this and the SQLite store. Records are held in insertion (id) order.
 */
export function createMemoryStore(): Store {
  const records = new Map<number, StoredRecord>();
  /** Each numbered record's sequence, by id (kept beside the record, as the real stores do). */
  const sequences = new Map<number, number>();
  let nextId = 1;
  let log: LogEntry[] = [];
  const kv = new Map<string, string>();
  const geofences = new Map<string, string>();
  const copy = (r: StoredRecord): StoredRecord => ({ ...r });
  const drop = (id: number): boolean => (sequences.delete(id), records.delete(id));
  /** Removes the record undelivered, counting it and its sequence into `removed`. */
  const tally = (removed: RemovedRecords, id: number): void => {
    const sequence = sequences.get(id);
    if (!drop(id)) return;
    removed.count++;
    if (sequence !== undefined) removed.sequences.push(sequence);
  };

  return {
    // A receipted record leaves the queue for the archive (issue 46).
    archive: createMemoryArchive((id) => {
      const record = records.get(id);
      if (record) drop(id);
      return record;
    }),
    locations: {
      async insert(record: NewRecord) {
        const id = nextId++;
        records.set(id, { ...record, id, locked: false });
        return id;
      },
      async insertNumbered(make, makeEpoch) {
        const { sequence, epoch, newEpoch } = nextNumber(kv.get(SEQUENCE_KEY), kv.get(EPOCH_KEY), makeEpoch);
        const record = make(sequence, epoch);
        if (newEpoch !== null) kv.set(EPOCH_KEY, newEpoch);
        kv.set(SEQUENCE_KEY, String(sequence));
        const id = nextId++;
        records.set(id, { ...record, id, locked: false });
        sequences.set(id, sequence);
        return sequence;
      },
      async count() {
        return records.size;
      },
      async list(query: RecordQuery) {
        const offset = query.offset ?? 0;
        const end = query.limit === undefined || query.limit < 0 ? undefined : offset + query.limit;
        return ordered(records.values(), query.order).slice(offset, end).map(copy);
      },
      async lockNext(limit: number, order: OrderDirection) {
        const taken: StoredRecord[] = [];
        for (const record of ordered(records.values(), order)) {
          if (taken.length >= limit) break;
          if (record.locked) continue;
          record.locked = true;
          taken.push(copy(record));
        }
        return taken;
      },
      async remove(ids) {
        let removed = 0;
        for (const id of ids) if (drop(id)) removed++;
        return removed;
      },
      async unlock(ids) {
        for (const id of ids) {
          const record = records.get(id);
          if (record) record.locked = false;
        }
      },
      async unlockAll() {
        let released = 0;
        for (const record of records.values()) {
          if (record.locked) released++;
          record.locked = false;
        }
        return released;
      },
      async removeAll() {
        const removed = emptyRemoved();
        for (const id of [...records.keys()]) tally(removed, id);
        return removed;
      },
      async removeByUuid(uuid: string) {
        const removed = emptyRemoved();
        for (const [id, record] of records) {
          if (record.uuid === uuid) {
            tally(removed, id);
            break;
          }
        }
        return removed;
      },
      async prune(rules) {
        const removed = emptyRemoved();
        // Never a record locked for an upload: the upload settles it.
        if (rules.olderThan !== undefined) {
          for (const [id, record] of records) {
            if (record.createdAt < rules.olderThan && !record.locked) tally(removed, id);
          }
        }
        if (rules.maxRecords !== undefined && rules.maxRecords >= 0) {
          let excess = records.size - rules.maxRecords;
          for (const [id, record] of records) {
            if (excess <= 0) break;
            if (record.locked) continue;
            tally(removed, id);
            excess--;
          }
        }
        return removed;
      },
    },
    log: {
      async append(entries) {
        log.push(...entries.map((e) => ({ ...e })));
      },
      async read(query) {
        const start = query?.start ?? query?.since ?? -Infinity;
        const end = query?.end ?? Infinity;
        const matching = log.filter((e) => e.timestamp >= start && e.timestamp <= end);
        const offset = query?.offset ?? 0;
        // As in SQLite: a negative limit is no limit, 0 is no entries.
        const limit = query?.limit === undefined || query.limit < 0 ? Infinity : query.limit;
        if (query?.order === 'ASC') return matching.slice(offset, offset + limit);
        const newestFirst = matching.reverse().slice(offset, offset + limit);
        return query?.order === 'DESC' ? newestFirst : newestFirst.reverse();
      },
      async clear() {
        log = [];
      },
      async prune(olderThan) {
        const before = log.length;
        log = log.filter((e) => e.timestamp >= olderThan);
        return before - log.length;
      },
    },
    kv: {
      async get(key) {
        return kv.get(key);
      },
      async set(key, value) {
        kv.set(key, value);
      },
      async delete(key) {
        kv.delete(key);
      },
    },
    geofences: {
      async upsert(rows: readonly GeofenceRow[]) {
        for (const row of rows) geofences.set(row.identifier, row.json);
      },
      async all() {
        return [...geofences].map(([identifier, json]) => ({ identifier, json }));
      },
      async remove(identifiers) {
        let removed = 0;
        for (const id of identifiers) if (geofences.delete(id)) removed++;
        return removed;
      },
      async removeAll() {
        const removed = geofences.size;
        geofences.clear();
        return removed;
      },
    },
    async close() {},
  };
}
