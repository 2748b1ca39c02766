import type { ReRegistration } from '../auth/reregistration.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { LocationQuery, QueueRecords } from '../queue/queue-records.js';
import type { Location } from '../records/location.js';
import type { SyncScheduler } from '../sync/sync-scheduler.js';
import type { Tracker } from '../tracking/tracker.js';

/** The anchor's queue API, with the anchor's results (the richer ones: the `store` view). */
export interface QueueMethods {
  getCount(): Promise<number>;
  /** Records as stored (parsed JSON), paged in the store: never the whole queue unless asked. */
  getLocations(query?: LocationQuery): Promise<object[]>;
  /** Empties the queue; true. The count removed: store.destroyLocations(). */
  destroyLocations(): Promise<boolean>;
  destroyLocation(uuid: string): Promise<boolean>;
  /** A raw insert in any state; resolves with the uuid (a given one is kept). The record: store.insertLocation. */
  insertLocation(input: unknown): Promise<string>;
  /**
   * Uploads the queue now, whatever autoSync, the threshold or the Wi-Fi policy say. Waits for a
   * running upload and then drains what remains. Resolves with the records it delivered.
   */
  sync(): Promise<Location[]>;
  /**
   * Resolves when no automatic upload is running or pending: triggers already made have been
   * evaluated and their uploads (and any log upload a server asked for, and registering again
   * after a 406 with the upload that follows it) have ended.
   */
  idle(): Promise<void>;
}

export interface QueueGroupDeps {
  records: QueueRecords;
  tracker: Pick<Tracker, 'insertLocation'>;
  scheduler: Pick<SyncScheduler, 'sync'>;
  lifecycle: Pick<Lifecycle, 'idle'>;
  reregistration: Pick<ReRegistration, 'idle'>;
}

export function queueGroup({ records, tracker, scheduler, lifecycle, reregistration }: QueueGroupDeps): QueueMethods {
  return {
    getCount: () => records.count(),
    getLocations: async (query = {}) => (await records.list(query)) as object[],
    destroyLocations: async () => {
      await records.destroyAll();
      return true;
    },
    destroyLocation: (uuid) => records.destroy(uuid),
    insertLocation: async (input) => (await tracker.insertLocation(input)).uuid,
    sync: () => scheduler.sync(),
    idle: async () => {
      await lifecycle.idle();
      // A 406 during those uploads started registering again; it ends with an upload of its own.
      await reregistration.idle();
      await lifecycle.idle();
    },
  };
}
