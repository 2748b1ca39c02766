import type { Database, Queryable } from '../db/database.js';
import { listGeofences, type ServerGeofence } from '../store/geofences.js';
import { READ_VERSION, versionOf } from './config-version.js';
import { listSinks, type Sink } from './sinks-store.js';

/** What the ingest path needs to decide events: where they go, and the geofences. */
export interface FleetConfig {
  /** fleet_config's version these were read at (config-version.ts). */
  version: number;
  sinks: readonly Sink[];
  /** Each with its org when it is an org's (issue 33): evaluated for that org's devices only. */
  geofences: readonly ServerGeofence[];
}

/** The configuration of a process that decides no events (storing without the fleet service). */
export const EMPTY_FLEET_CONFIG: FleetConfig = { version: 0, sinks: [], geofences: [] };

/**
 * The sinks and geofences, kept in the process with the version they were read at. Every ingest
 * transaction reads the current version first (config-version.ts) and asks `at` for it: the copy
 * when it is that version (no read), else the rows read again in that transaction. So a change made
 * through another process counts from the next upload on, not from this process's next poll.
 */
export class FleetConfigCache {
  private current: FleetConfig = EMPTY_FLEET_CONFIG;

  /** What was last read, to tell a change from a reload that found the same. */
  private fingerprint = '';

  constructor(
    private readonly db: Database,
    /** Called after a reload that found something different (the server logs it). */
    private readonly onChanged: (config: FleetConfig) => void = () => undefined,
  ) {}

  get(): FleetConfig {
    return this.current;
  }

  /**
   * The configuration at `version`, which `tx` read first. A change may commit while the rows are
   * read (each statement sees the latest commits): then the version has moved once they are read,
   * and they are not kept; the transaction deciding with them is not committed (config-version.ts).
   */
  async at(tx: Queryable, version: number): Promise<FleetConfig> {
    if (version === this.current.version) return this.current;
    const config: FleetConfig = {
      version,
      sinks: await listSinks(tx),
      geofences: await listGeofences(tx),
    };
    const unchanged = tx.dialect === 'sqlite' || versionOf(await tx.query(READ_VERSION)) === version;
    // Two transactions may read two versions in either order: the copy only moves forward.
    if (unchanged && version > this.current.version) {
      this.current = config;
      const fingerprint = JSON.stringify([config.sinks, config.geofences]);
      if (fingerprint !== this.fingerprint) {
        this.fingerprint = fingerprint;
        this.onChanged(config);
      }
    }
    return config;
  }

  /** Reads the version, and the rows when it moved (at start, at each delivery poll, after a change here). */
  async refresh(): Promise<FleetConfig> {
    return this.db.transaction((tx, begun) => this.at(tx, versionOf(begun)), { begin: READ_VERSION });
  }
}
