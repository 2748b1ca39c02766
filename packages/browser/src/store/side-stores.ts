import { EPOCH_KEY, SEQUENCE_KEY, type GeofenceStore, type KeyValueStore } from '@waypost/sdk/internal';
import type { Db } from './schema.js';

/** The numbering's keys (numbering.ts remembers what it wrote there). */
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
