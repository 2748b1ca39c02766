import {
  EPOCH_KEY,
  SEQUENCE_KEY,
  type GeofenceStore,
  type KeyValueStore,
  type LogEntry,
  type LogStore,
} from '@waypost/sdk/internal';
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

/** The numbering's keys (numbered-insert.ts remembers what it wrote there). */
const NUMBERING_KEYS = new Set([SEQUENCE_KEY, EPOCH_KEY]);

/** The kv port's view of the numbering (numbering.ts). */
export interface NumberingKeys {
  /** The counter: kv's may lag behind the last numbered row. */
  counter(): Promise<string | undefined>;
  /** The counter or epoch was written here rather than by a numbered insert. */
  written(): void;
}

/** Saved configuration, tracking state and the device's uuid. */
export function createKeyValueStore(db: Db, numbering: NumberingKeys): KeyValueStore {
  return {
    get: (key) => (key === SEQUENCE_KEY ? numbering.counter() : db.get('kv', key)),
    async set(key, value) {
      await db.put('kv', value, key);
      // After the write: an insert that was under way when it began remembers the old counter.
      if (NUMBERING_KEYS.has(key)) numbering.written();
    },
    async delete(key) {
      await db.delete('kv', key);
      if (NUMBERING_KEYS.has(key)) numbering.written();
    },
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
