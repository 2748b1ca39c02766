import {
  type LocationQueueStore,
  type OrderDirection,
  type RemovedRecords,
  type StoredRecord,
} from '@waypost/sdk/internal';
import { covers, normalize, withRange, without, withoutInterval, type IdRange } from './lock-ranges.js';
import { unwrap } from 'idb';
import { keepCounter, type NumberedInsert } from './numbering.js';
import type { Db, WaypostDb } from './schema.js';

type Row = WaypostDb['locations']['value'];
/** Chromium's IndexedDB durability hint: relaxed survives a crashed tab or browser; strict also power loss. */
export type Durability = 'relaxed' | 'strict';

const toRecord = (row: Row, locks: readonly IdRange[]): StoredRecord => ({
  id: row.id!,
  uuid: row.uuid,
  createdAt: row.createdAt,
  json: row.json,
  locked: covers(locks, row.id!),
});

/** Rows removed undelivered, with their sequence numbers (the ledger's tombstones). */
const removedOf = (rows: readonly Row[]): RemovedRecords => ({
  count: rows.length,
  sequences: rows.flatMap((row) => (row.sequence === undefined ? [] : [row.sequence])),
});

/** The ids as one interval when they are exactly the integers from min to max (a batch taken in order). */
function asInterval(ids: readonly number[]): { from: number; to: number } | null {
  if (ids.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const id of ids) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  return max - min + 1 === ids.length && new Set(ids).size === ids.length ? { from: min, to: max } : null;
}

/** The largest count IndexedDB's getAll takes (WebIDL unsigned long). */
const MAX_GETALL_COUNT = 2 ** 32 - 1;

type ReadLocksTx = { objectStore(name: 'locks'): { getAll(): Promise<IdRange[]> } };
type LockTx = {
  objectStore(name: 'locks'): { clear(): Promise<void>; put(value: IdRange, key: number): Promise<number> };
};
const readLocks = async (tx: ReadLocksTx) => normalize(await tx.objectStore('locks').getAll());
/** Rewrites the (few) lock ranges inside the caller's transaction. */
function writeLocks(tx: LockTx, ranges: readonly IdRange[]): void {
  const store = tx.objectStore('locks');
  void store.clear();
  for (const r of ranges) void store.put({ from: r.from, to: r.to }, r.from);
}

/**
 * The queue on IndexedDB. Every method is one readwrite (or readonly) transaction, and IndexedDB
 * runs overlapping readwrite transactions one after another, across tabs and service workers of the
 * origin too: that is what makes lockNext hand each record to one upload only. Deleted records'
 * ids are never reused (autoIncrement), so a lock range left over a deleted id locks nothing.
 */
export function createLocationQueue(db: Db, durability: Durability, numbered: NumberedInsert): LocationQueueStore {
  const write = <S extends 'locations' | 'locks'>(stores: S[]) => db.transaction(stores, 'readwrite', { durability });
  /** A transaction that deletes rows: kv's counter first takes in their numbers (numbering.ts). */
  const deleting = async <S extends 'locations' | 'locks'>(stores: S[]) => {
    const tx = db.transaction([...stores, 'kv'], 'readwrite', { durability });
    await keepCounter(unwrap(tx));
    return tx;
  };

  return {
    async insert(record) {
      const tx = db.transaction('locations', 'readwrite', { durability });
      const id = await tx.store.add({ uuid: record.uuid, createdAt: record.createdAt, json: record.json });
      await tx.done;
      return id;
    },
    // Numbered by the row's id, without reading the counter (numbering.ts).
    insertNumbered: (make, makeEpoch) => numbered.insert(make, makeEpoch),
    count: () => db.count('locations'),
    async list(query) {
      const tx = db.transaction(['locations', 'locks'], 'readonly');
      const locks = await readLocks(tx);
      const offset = query.offset ?? 0;
      const limit = query.limit === undefined || query.limit < 0 ? Infinity : query.limit;
      const rows: StoredRecord[] = [];
      if (limit === 0) return rows;
      let cursor = await tx.objectStore('locations').openCursor(null, query.order === 'DESC' ? 'prev' : 'next');
      if (cursor && offset > 0) cursor = await cursor.advance(offset);
      while (cursor && rows.length < limit) {
        rows.push(toRecord(cursor.value, locks));
        cursor = await cursor.continue();
      }
      return rows;
    },
    async lockNext(limit: number, order: OrderDirection) {
      const tx = write(['locations', 'locks']);
      const locks = await readLocks(tx);
      const locations = tx.objectStore('locations');
      const taken: StoredRecord[] = [];
      if (order === 'ASC') {
        // getAll of the next rows beats a cursor step per row; locked rows (an upload's batch) are
        // skipped by starting past each locked range that the last row fell into.
        let after: number | null = null;
        while (taken.length < limit) {
          const want = limit - taken.length;
          // getAll's count is an unsigned long: an unbounded batch (maxBatchSize -1) asks for all.
          const count = want > MAX_GETALL_COUNT ? undefined : want;
          const rows = await locations.getAll(after === null ? null : IDBKeyRange.lowerBound(after, true), count);
          for (const row of rows) if (!covers(locks, row.id!)) taken.push(toRecord(row, locks));
          if (rows.length < want) break;
          const last = rows.at(-1)!.id!;
          after = locks.find((r) => r.from <= last && last <= r.to)?.to ?? last;
        }
      } else {
        let cursor = await locations.openCursor(null, 'prev');
        while (cursor && taken.length < limit) {
          if (!covers(locks, cursor.value.id!)) taken.push(toRecord(cursor.value, locks));
          cursor = await cursor.continue();
        }
      }
      if (taken.length > 0) {
        // The rows between the first and the last taken are locked already: one range covers them all.
        writeLocks(tx, withRange(locks, taken[0]!.id, taken.at(-1)!.id));
        for (const record of taken) record.locked = true;
      }
      await tx.done;
      return taken;
    },
    async remove(ids) {
      if (ids.length === 0) return 0;
      const tx = await deleting(['locations', 'locks']);
      const locations = tx.objectStore('locations');
      const locks = await readLocks(tx);
      const interval = asInterval(ids);
      let removed = 0;
      if (interval) {
        const range = IDBKeyRange.bound(interval.from, interval.to);
        removed = await locations.count(range);
        void locations.delete(range);
        writeLocks(tx, withoutInterval(locks, interval.from, interval.to));
      } else {
        for (const id of ids) {
          if ((await locations.getKey(id)) !== undefined) removed++;
          void locations.delete(id);
        }
        writeLocks(tx, without(locks, ids));
      }
      await tx.done;
      return removed;
    },
    async unlock(ids) {
      if (ids.length === 0) return;
      const tx = write(['locks']);
      const locks = await readLocks(tx);
      const interval = asInterval(ids);
      writeLocks(tx, interval ? withoutInterval(locks, interval.from, interval.to) : without(locks, ids));
      await tx.done;
    },
    async unlockAll() {
      const tx = write(['locations', 'locks']);
      let held = 0;
      // Records under a lock, not lock rows: a range may span deleted ids.
      for (const r of await readLocks(tx))
        held += await tx.objectStore('locations').count(IDBKeyRange.bound(r.from, r.to));
      void tx.objectStore('locks').clear();
      await tx.done;
      return held;
    },
    async removeAll() {
      const tx = await deleting(['locations', 'locks']);
      const removed = removedOf(await tx.objectStore('locations').getAll());
      void tx.objectStore('locations').clear();
      void tx.objectStore('locks').clear();
      await tx.done;
      return removed;
    },
    async removeByUuid(uuid) {
      const tx = await deleting(['locations']);
      const rows = await tx.objectStore('locations').index('uuid').getAll(uuid);
      for (const row of rows) void tx.objectStore('locations').delete(row.id!);
      await tx.done;
      return removedOf(rows);
    },
    async prune(rules) {
      const tx = await deleting(['locations', 'locks']);
      const locations = tx.objectStore('locations');
      // Never a record locked for an upload: the upload settles it.
      const locks = await readLocks(tx);
      const doomed: number[] = [];
      const sequences: number[] = [];
      if (rules.olderThan !== undefined) {
        const range = IDBKeyRange.upperBound(rules.olderThan, true);
        for (const row of await locations.index('createdAt').getAll(range)) {
          if (covers(locks, row.id!)) continue;
          doomed.push(row.id!);
          if (row.sequence !== undefined) sequences.push(row.sequence);
        }
      }
      if (rules.maxRecords !== undefined && rules.maxRecords >= 0) {
        const excess = (await locations.count()) - doomed.length - rules.maxRecords;
        if (excess > 0) {
          // The oldest by id that the age rule did not already take.
          const gone = new Set(doomed);
          let cursor = await locations.openCursor();
          let taken = 0;
          while (cursor && taken < excess) {
            if (!gone.has(cursor.primaryKey) && !covers(locks, cursor.primaryKey)) {
              doomed.push(cursor.primaryKey);
              if (cursor.value.sequence !== undefined) sequences.push(cursor.value.sequence);
              taken++;
            }
            cursor = await cursor.continue();
          }
        }
      }
      for (const id of doomed) void locations.delete(id);
      await tx.done;
      return { count: doomed.length, sequences };
    },
  };
}
