import { deleteDB, unwrap } from 'idb';
import { WaypostError, type Store } from '@waypost/sdk/internal';
import { createLocationQueue, type Durability } from './location-queue.js';
import { createNumberedInsert, currentCounter } from './numbering.js';
import { openWaypostDb } from './schema.js';
import { createArchive } from './archive-store.js';
import { createGeofenceStore, createKeyValueStore } from './side-stores.js';
import { createLogStore } from './log-store.js';

export interface IndexedDbStoreOptions {
  /** relaxed (default) survives a crashed tab or browser; strict also survives power loss, slower. */
  durability?: Durability;
}

/**
 * The SDK's store in one IndexedDB database of the origin. Every tab and the service worker of
 * the origin open the same database, so they share one queue.
 */
export async function openIndexedDbStore(name: string, options: IndexedDbStoreOptions = {}): Promise<Store> {
  const durability = options.durability ?? 'relaxed';
  let db;
  try {
    db = await openWaypostDb(name);
  } catch (error) {
    const reason =
      (error as Error).name === 'VersionError' ? 'it was written by a newer Waypost' : (error as Error).message;
    throw new WaypostError('STORE', `Cannot open the Waypost database ${name}: ${reason}`);
  }
  const raw = unwrap(db);
  const numbered = createNumberedInsert(raw, durability);
  return {
    archive: createArchive(db, durability),
    locations: createLocationQueue(db, durability, numbered),
    log: createLogStore(db, durability),
    kv: createKeyValueStore(db, { counter: () => currentCounter(raw), written: () => numbered.forget() }),
    geofences: createGeofenceStore(db),
    close: async () => db.close(),
  };
}

/** Deletes the database (tests, "forget this device"); waits until other tabs have closed it. */
export async function deleteIndexedDbStore(name: string): Promise<void> {
  await deleteDB(name);
}
