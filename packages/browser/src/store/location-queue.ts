import { unwrap } from 'idb';
import type { LocationQueueStore, OrderDirection, StoredRecord } from '@waypost/sdk';
import type { Db, WaypostDb } from './schema.js';

type Row = WaypostDb['locations']['value'];
/** Chromium's IndexedDB durability hint: relaxed survives a crashed tab or browser; strict also power loss. */
export type Durability = 'relaxed' | 'strict';

const toRecord = (row: Row, locked: ReadonlySet<number>): StoredRecord => ({
  id: row.id!,
  uuid: row.uuid,
  createdAt: row.createdAt,
  json: row.json,
  locked: locked.has(row.id!),
});

/** The ids as one key range when they are exactly the integers from min to max (a batch taken in order). */
function asRange(ids: readonly number[]): IDBKeyRange | null {
  if (ids.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const id of ids) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  return max - min + 1 === ids.length && new Set(ids).size === ids.length ? IDBKeyRange.bound(min, max) : null;
}

/**
 * The queue on IndexedDB. Every method is one readwrite (or readonly) transaction, and IndexedDB
 * runs overlapping readwrite transactions one after another, across tabs and service workers of the
 * origin too: that is what makes lockNext hand each record to one upload only.
 */
export function createLocationQueue(db: Db, durability: Durability): LocationQueueStore {
  const write = <S extends 'locations' | 'locks'>(stores: S[]) => db.transaction(stores, 'readwrite', { durability });
  const lockedIds = async (tx: { objectStore(name: 'locks'): { getAllKeys(): Promise<number[]> } }) =>
    new Set(await tx.objectStore('locks').getAllKeys());

  return {
    async insert(record) {
      const tx = db.transaction('locations', 'readwrite', { durability });
      const id = await tx.store.add({ uuid: record.uuid, createdAt: record.createdAt, json: record.json });
      await tx.done;
      return id;
    },
    count: () => db.count('locations'),
    async list(query) {
      const tx = db.transaction(['locations', 'locks'], 'readonly');
      const locked = await lockedIds(tx);
      const offset = query.offset ?? 0;
      const limit = query.limit === undefined || query.limit < 0 ? Infinity : query.limit;
      const rows: StoredRecord[] = [];
      if (limit === 0) return rows;
      let cursor = await tx.objectStore('locations').openCursor(null, query.order === 'DESC' ? 'prev' : 'next');
      if (cursor && offset > 0) cursor = await cursor.advance(offset);
      while (cursor && rows.length < limit) {
        rows.push(toRecord(cursor.value, locked));
        cursor = await cursor.continue();
      }
      return rows;
    },
    async lockNext(limit: number, order: OrderDirection) {
      const tx = write(['locations', 'locks']);
      const locks = tx.objectStore('locks');
      const locked = await lockedIds(tx);
      const taken: StoredRecord[] = [];
      if (order === 'ASC') {
        // One getAll of the first rows beats a cursor step per row; locked rows are few (a batch).
        const rows = await tx.objectStore('locations').getAll(null, limit + locked.size);
        for (const row of rows) if (taken.length < limit && !locked.has(row.id!)) taken.push(toRecord(row, locked));
      } else {
        let cursor = await tx.objectStore('locations').openCursor(null, 'prev');
        while (cursor && taken.length < limit) {
          if (!locked.has(cursor.value.id!)) taken.push(toRecord(cursor.value, locked));
          cursor = await cursor.continue();
        }
      }
      // Bare requests: a promise per lock row (idb's wrapper) showed in the drain profile.
      const bare = unwrap(locks);
      for (const record of taken) {
        record.locked = true;
        bare.put(record.id, record.id);
      }
      await tx.done;
      return taken;
    },
    async remove(ids) {
      if (ids.length === 0) return 0;
      const tx = write(['locations', 'locks']);
      const locations = tx.objectStore('locations');
      const locks = tx.objectStore('locks');
      const range = asRange(ids);
      let removed = 0;
      if (range) {
        removed = await locations.count(range);
        void locations.delete(range);
        void locks.delete(range);
      } else {
        for (const id of ids) {
          if ((await locations.getKey(id)) !== undefined) removed++;
          void locations.delete(id);
          void locks.delete(id);
        }
      }
      await tx.done;
      return removed;
    },
    async unlock(ids) {
      if (ids.length === 0) return;
      const tx = db.transaction('locks', 'readwrite', { durability });
      const range = asRange(ids);
      if (range) void tx.store.delete(range);
      else for (const id of ids) void tx.store.delete(id);
      await tx.done;
    },
    async unlockAll() {
      const tx = db.transaction('locks', 'readwrite', { durability });
      const held = await tx.store.count();
      void tx.store.clear();
      await tx.done;
      return held;
    },
    async removeAll() {
      const tx = write(['locations', 'locks']);
      const removed = await tx.objectStore('locations').count();
      void tx.objectStore('locations').clear();
      void tx.objectStore('locks').clear();
      await tx.done;
      return removed;
    },
    async removeByUuid(uuid) {
      const tx = write(['locations', 'locks']);
      const keys = await tx.objectStore('locations').index('uuid').getAllKeys(uuid);
      for (const id of keys) {
        void tx.objectStore('locations').delete(id);
        void tx.objectStore('locks').delete(id);
      }
      await tx.done;
      return keys.length > 0;
    },
    async prune(rules) {
      const tx = write(['locations', 'locks']);
      const locations = tx.objectStore('locations');
      const locks = tx.objectStore('locks');
      const doomed: number[] = [];
      if (rules.olderThan !== undefined) {
        const range = IDBKeyRange.upperBound(rules.olderThan, true);
        doomed.push(...(await locations.index('createdAt').getAllKeys(range)));
      }
      if (rules.maxRecords !== undefined && rules.maxRecords >= 0) {
        const excess = (await locations.count()) - doomed.length - rules.maxRecords;
        if (excess > 0) {
          // The oldest by id that the age rule did not already take.
          const gone = new Set(doomed);
          let cursor = await locations.openKeyCursor();
          let taken = 0;
          while (cursor && taken < excess) {
            if (!gone.has(cursor.primaryKey)) {
              doomed.push(cursor.primaryKey);
              taken++;
            }
            cursor = await cursor.continue();
          }
        }
      }
      for (const id of doomed) {
        void locations.delete(id);
        void locks.delete(id);
      }
      await tx.done;
      return doomed.length;
    },
  };
}
