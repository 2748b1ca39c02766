import type { Config } from '../config/types.js';
import { DAY_MS, type SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { LocationQueueStore } from '../ports/store.js';

export interface RetentionDeps {
  queue: LocationQueueStore;
  clock: Clock;
  logger: SdkLogger;
  config: () => Config;
}

/** Retention: the TTL (maxDaysToPersist) and the cap (maxRecordsToPersist) applied to the queue. */
export class Retention {
  constructor(private readonly deps: RetentionDeps) {}

  async apply(): Promise<void> {
    const { persistence } = this.deps.config();
    const removed = await this.deps.queue.prune({
      olderThan: this.deps.clock.now() - persistence.maxDaysToPersist * DAY_MS,
      ...(persistence.maxRecordsToPersist >= 0 ? { maxRecords: persistence.maxRecordsToPersist } : {}),
    });
    if (removed > 0)
      this.deps.logger.warn('Queue', `retention removed ${removed} records (maxDaysToPersist/maxRecordsToPersist)`);
  }
}
