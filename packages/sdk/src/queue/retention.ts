import { OneShotTimer } from '../clock/one-shot-timer.js';
import type { Config } from '../config/types.js';
import type { DropReason } from '../events/types.js';
import { DAY_MS, type SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { Tombstones } from '../ledger/tombstones.js';
import type { LocationQueueStore, RemovedRecords } from '../ports/store.js';

/** How often retention runs on its own while the instance is open (besides heartbeats and reads). */
export const RETENTION_INTERVAL_MS = 15 * 60 * 1000;

export interface RetentionDeps {
  queue: LocationQueueStore;
  clock: Clock;
  logger: SdkLogger;
  config: () => Config;
  /** Every loss is reported: the onDrop event. */
  onDrop: (reason: DropReason, count: number) => void;
  /** ...and, by sequence number, to the server (the delivery ledger's tombstones). */
  tombstones: Tombstones;
}

/**
 * Retention, applied eagerly: the TTL (maxDaysToPersist) and the cap (maxRecordsToPersist) run
 * when the instance opens, on a timer while it is open (started or not), on each heartbeat, before
 * each flush and before the queue is read, so an expired record is never counted, returned or
 * uploaded. Each removal is reported with its reason.
 */
export class Retention {
  private readonly timer: OneShotTimer;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly deps: RetentionDeps) {
    this.timer = new OneShotTimer(deps.clock, { background: true });
  }

  /** Starts the periodic run (from open until close). */
  start(): void {
    this.timer.schedule(RETENTION_INTERVAL_MS, () => {
      if (this.closed) return;
      this.start();
      void this.apply().catch((error: unknown) =>
        this.deps.logger.error('Queue', `retention failed: ${(error as Error).message}`),
      );
    });
  }

  /** Applies both rules now; concurrent callers share one run. */
  apply(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  /**
   * Reports records that left the queue undelivered: retention's own, a write's over the cap (the
   * record writer prunes as it inserts), the application's destroy calls.
   */
  report(reason: DropReason, { count, sequences }: RemovedRecords): void {
    void this.deps.tombstones
      .add(reason, sequences)
      .catch((error: unknown) =>
        this.deps.logger.error('Queue', `dropped records not kept for the ledger: ${(error as Error).message}`),
      );
    if (count <= 0) return;
    const why = {
      ttl: `older than maxDaysToPersist (${this.deps.config().persistence.maxDaysToPersist} days)`,
      cap: `over maxRecordsToPersist (${this.deps.config().persistence.maxRecordsToPersist})`,
      destroyed: 'destroyed by the application',
    }[reason];
    this.deps.logger.warn('Queue', `dropped ${count} record${count === 1 ? '' : 's'}: ${why}`);
    this.deps.onDrop(reason, count);
  }

  close(): void {
    this.closed = true;
    this.timer.clear();
  }

  private async run(): Promise<void> {
    const { persistence } = this.deps.config();
    const expired = await this.deps.queue.prune({
      olderThan: this.deps.clock.now() - persistence.maxDaysToPersist * DAY_MS,
    });
    this.report('ttl', expired);
    if (persistence.maxRecordsToPersist >= 0) {
      this.report('cap', await this.deps.queue.prune({ maxRecords: persistence.maxRecordsToPersist }));
    }
  }
}
