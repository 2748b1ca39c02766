import type { Geofence } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';
import { listGeofences } from '../store/geofences.js';
import { listSinks, type Sink } from './sinks-store.js';

/** What the ingest path needs to decide events: where they go, and the geofences. */
export interface FleetConfig {
  sinks: readonly Sink[];
  geofences: readonly Geofence[];
}

/**
 * The sinks and geofences, kept in the process: the ingest transaction reads them from here, so a
 * server without sinks pays nothing per transaction. Reloaded at start, at once after this
 * process's admin API changed them, and at every delivery poll (deliveryPollMs) for changes made
 * through another process.
 */
export class FleetConfigCache {
  private current: FleetConfig = { sinks: [], geofences: [] };
  private loading: Promise<FleetConfig> | null = null;

  /** What was last read, to tell a change from a reload that found the same. */
  private fingerprint = JSON.stringify(this.current);

  constructor(
    private readonly db: Queryable,
    /** Called after a reload that found something different (the server logs it). */
    private readonly onChanged: (config: FleetConfig) => void = () => undefined,
  ) {}

  get(): FleetConfig {
    return this.current;
  }

  /** Reads both again; concurrent calls share one read started after the latest call. */
  async reload(): Promise<FleetConfig> {
    const previous = this.loading;
    const next = (async () => {
      await previous?.catch(() => undefined);
      const [sinks, geofences] = [await listSinks(this.db), await listGeofences(this.db)];
      this.current = { sinks, geofences };
      const fingerprint = JSON.stringify(this.current);
      if (fingerprint !== this.fingerprint) {
        this.fingerprint = fingerprint;
        this.onChanged(this.current);
      }
      return this.current;
    })();
    this.loading = next;
    try {
      return await next;
    } finally {
      if (this.loading === next) this.loading = null;
    }
  }
}
