import type { Store } from '@waypost/node';

/** What a device's queue saw: every record that entered it and every record an upload acknowledged. */
export interface QueueLedger {
  readonly recorded: Set<string>;
  readonly acknowledged: Set<string>;
}

/**
 * Wraps a store so the simulator knows, by uuid, what was recorded and what the SDK deleted after
 * a 2xx, without reaching into the SDK. Only the uploader removes by id, right after the records it
 * locked were acknowledged, so ids seen in lockNext are mapped back to their uuids.
 */
export function recordingStore(store: Store): { store: Store; ledger: QueueLedger } {
  const ledger: QueueLedger = { recorded: new Set(), acknowledged: new Set() };
  const lockedUuids = new Map<number, string>();
  const locations = store.locations;
  const wrapped: Store = {
    log: store.log,
    kv: store.kv,
    geofences: store.geofences,
    close: () => store.close(),
    locations: {
      count: () => locations.count(),
      list: (query) => locations.list(query),
      unlockAll: () => locations.unlockAll(),
      removeAll: () => locations.removeAll(),
      removeByUuid: (uuid) => locations.removeByUuid(uuid),
      prune: (rules) => locations.prune(rules),
      async insert(record) {
        const id = await locations.insert(record);
        ledger.recorded.add(record.uuid);
        return id;
      },
      insertNumbered: (make, makeEpoch) =>
        locations.insertNumbered((sequence, epoch) => {
          const record = make(sequence, epoch);
          ledger.recorded.add(record.uuid);
          return record;
        }, makeEpoch),
      async lockNext(limit, order) {
        const batch = await locations.lockNext(limit, order);
        for (const record of batch) lockedUuids.set(record.id, record.uuid);
        return batch;
      },
      async remove(ids) {
        const removed = await locations.remove(ids);
        for (const id of ids) {
          const uuid = lockedUuids.get(id);
          if (uuid !== undefined) ledger.acknowledged.add(uuid);
          lockedUuids.delete(id);
        }
        return removed;
      },
      async unlock(ids) {
        for (const id of ids) lockedUuids.delete(id);
        return locations.unlock(ids);
      },
    },
  };
  return { store: wrapped, ledger };
}
