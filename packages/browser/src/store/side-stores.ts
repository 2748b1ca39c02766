import type { GeofenceStore, KeyValueStore, LogEntry, LogStore } from '@waypost/sdk/internal';
import type { Durability } from './location-queue.js';
import type { Db } from './schema.js';

const entry = (row: LogEntry): LogEntry => ({
  timestamp: row.timestamp,
  level: row.level,
  tag: row.tag,
  message: row.message,
});

/** The SDK log: entries in insertion order; `limit` keeps the newest N, as the SQLite store does. */
export function createLogStore(db: Db, durability: Durability): LogStore {
  return {
    async append(entries) {
      if (entries.length === 0) return;
      const tx = db.transaction('log', 'readwrite', { durability });
      for (const e of entries) void tx.store.add(entry(e));
      await tx.done;
    },
    async read(query) {
      // Without `order`: the newest `limit` after skipping `offset` newest, oldest first (the
      // tail); with it, the anchor's meaning (ASC from the oldest, DESC from the newest).
      const start = query?.start ?? query?.since ?? -Infinity;
      const end = query?.end ?? Infinity;
      const offset = Math.max(0, query?.offset ?? 0);
      const limit = query?.limit === undefined || query.limit < 0 ? Infinity : query.limit;
      const taken: LogEntry[] = [];
      if (limit === 0) return taken;
      const direction = query?.order === 'ASC' ? 'next' : 'prev';
      let skipped = 0;
      let cursor = await db.transaction('log').store.openCursor(null, direction);
      while (cursor && taken.length < limit) {
        const { timestamp } = cursor.value;
        if (timestamp >= start && timestamp <= end) {
          if (skipped < offset) skipped++;
          else taken.push(entry(cursor.value));
        }
        cursor = await cursor.continue();
      }
      return query?.order === undefined ? taken.reverse() : taken;
    },
    async clear() {
      await db.clear('log');
    },
    async prune(olderThan) {
      const tx = db.transaction('log', 'readwrite', { durability });
      const keys = await tx.store.index('timestamp').getAllKeys(IDBKeyRange.upperBound(olderThan, true));
      for (const key of keys) void tx.store.delete(key);
      await tx.done;
      return keys.length;
    },
  };
}

/** Saved configuration, tracking state and the device's uuid. */
export function createKeyValueStore(db: Db): KeyValueStore {
  return {
    get: (key) => db.get('kv', key),
    set: async (key, value) => void (await db.put('kv', value, key)),
    delete: (key) => db.delete('kv', key),
  };
}

export function createGeofenceStore(db: Db): GeofenceStore {
  return {
    async upsert(rows) {
      const tx = db.transaction('geofences', 'readwrite');
      for (const row of rows) void tx.store.put({ identifier: row.identifier, json: row.json });
      await tx.done;
    },
    async all() {
      return (await db.getAll('geofences')).map((row) => ({ identifier: row.identifier, json: row.json }));
    },
    async remove(identifiers) {
      const tx = db.transaction('geofences', 'readwrite');
      let removed = 0;
      for (const id of identifiers) {
        if ((await tx.store.getKey(id)) === undefined) continue;
        removed++;
        void tx.store.delete(id);
      }
      await tx.done;
      return removed;
    },
    async removeAll() {
      const tx = db.transaction('geofences', 'readwrite');
      const removed = await tx.store.count();
      void tx.store.clear();
      await tx.done;
      return removed;
    },
  };
}
