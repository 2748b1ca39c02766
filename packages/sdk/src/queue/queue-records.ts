import type { Config } from '../config/types.js';
import type { SdkLogger } from '../log/logger.js';
import type { LocationQueueStore, RemovedRecords } from '../ports/store.js';
import { parseLocationQuery, type LocationQuery } from '../store/query.js';

export type { LocationQuery } from '../store/query.js';

/** The queue as the application sees it: counting, reading and destroying records. */
export class QueueRecords {
  constructor(
    private readonly deps: {
      queue: LocationQueueStore;
      logger: SdkLogger;
      config: () => Config;
      /** Retention runs before reads, so an expired record is never counted or returned. */
      beforeRead: () => Promise<void>;
      onDestroyed: (removed: RemovedRecords) => void;
    },
  ) {}

  async count(): Promise<number> {
    await this.deps.beforeRead();
    return this.deps.queue.count();
  }

  /** Records as stored (parsed JSON), paged in the store: never the whole queue unless asked. */
  async list(query: LocationQuery = {}): Promise<unknown[]> {
    await this.deps.beforeRead();
    const rows = await this.deps.queue.list(
      parseLocationQuery(query, this.deps.config().persistence.locationsOrderDirection),
    );
    return rows.map((row) => JSON.parse(row.json) as unknown);
  }

  async destroyAll(): Promise<number> {
    const removed = await this.deps.queue.removeAll();
    this.deps.logger.info('Queue', `destroyLocations: ${removed.count} removed`);
    this.deps.onDestroyed(removed);
    return removed.count;
  }

  async destroy(uuid: string): Promise<boolean> {
    const removed = await this.deps.queue.removeByUuid(uuid);
    if (removed.count > 0) {
      this.deps.logger.info('Queue', `DESTROY ${uuid} (destroyLocation)`);
      this.deps.onDestroyed(removed);
    }
    return removed.count > 0;
  }
}
