import type { ReceiptDay } from '../receipts/receipt-days.js';
import type { ReceiptKeeper } from '../receipts/receipt-keeper.js';
import type { LocationQuery, QueueRecords } from '../queue/queue-records.js';
import type { Location } from '../records/location.js';
import type { SyncScheduler } from '../sync/sync-scheduler.js';
import type { Geofencing } from '../tracking/geofences.js';
import type { Tracker } from '../tracking/tracker.js';

/** Property style, with Waypost's richer results: the stored record, counts. */
export interface StoreView {
  sync: () => Promise<Location[]>;
  getCount: () => Promise<number>;
  getLocations: (query?: LocationQuery) => Promise<object[]>;
  insertLocation: (input: unknown) => Promise<Location>;
  destroyLocations: () => Promise<number>;
  destroyLocation: (uuid: string) => Promise<boolean>;
  removeGeofences: (identifiers?: string[]) => Promise<number>;
  /**
   * Waypost (issue 46): per day, what servers that offer receipts acknowledged with a verified
   * receipt, kept for persistence.maxDaysToArchive: "the server holds my records up to here".
   */
  getReceipts: () => Promise<ReceiptDay[]>;
}

export interface StoreGroupDeps {
  records: QueueRecords;
  tracker: Pick<Tracker, 'insertLocation'>;
  scheduler: Pick<SyncScheduler, 'sync'>;
  geofencing: Pick<Geofencing, 'remove'>;
  receipts: Pick<ReceiptKeeper, 'days'>;
}

export function storeGroup({ records, tracker, scheduler, geofencing, receipts }: StoreGroupDeps): {
  readonly store: StoreView;
} {
  return {
    store: {
      sync: () => scheduler.sync(),
      getCount: () => records.count(),
      getLocations: async (query = {}) => (await records.list(query)) as object[],
      insertLocation: (input) => tracker.insertLocation(input),
      destroyLocations: () => records.destroyAll(),
      destroyLocation: (uuid) => records.destroy(uuid),
      removeGeofences: (identifiers) => geofencing.remove(identifiers),
      getReceipts: () => receipts.days(),
    },
  };
}
