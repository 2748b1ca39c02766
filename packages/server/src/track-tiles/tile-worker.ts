import type { Database } from '../db/database.js';
import { buildTrackTiles, type ExpiredBefore } from './pyramid-builder.js';

/** How often the builder looks for stale buckets. */
export const BUILD_INTERVAL_MS = 30_000;

/** Runs build passes in the background, one at a time; close() waits for the running one. */
export class TrackTileWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly failed: (error: unknown) => void,
    /** Each device's retention cutoff: hours past it are emptied, not rebuilt. */
    private readonly expiredBefore?: ExpiredBefore,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs a pass now (after the running one) and answers how many buckets it rebuilt. */
  async runNow(): Promise<number> {
    await this.running;
    const pass = buildTrackTiles(this.db, this.now(), () => this.closed, this.expiredBefore);
    this.running = pass.catch(() => undefined);
    return pass;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.runNow().then(
        () => this.schedule(BUILD_INTERVAL_MS),
        (error: unknown) => (this.failed(error), this.schedule(BUILD_INTERVAL_MS)),
      );
    }, delay);
    this.timer.unref();
  }
}
