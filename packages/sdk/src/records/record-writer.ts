import type { PersistenceConfig } from '../config/types.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { LocationQueueStore, RemovedRecords } from '../ports/store.js';
import type { Fix, Location } from './location.js';
import { makeEpochId } from '../ledger/epoch.js';
import { renderRecord } from './render.js';
import { compileTemplate, type CompiledTemplate } from './template.js';
import { recordUuid } from './uuid.js';

/** The SDK's state a record carries beside its fix. */
export interface RecordState {
  isMoving: boolean;
  /** Metres. */
  odometer: number;
}

/** A location of the default schema from a validated fix and the SDK's state (DESIGN 4). */
export function buildLocation(
  fix: Fix,
  state: RecordState,
  event?: Location['event'],
  extra?: Partial<Location>,
): Location {
  return {
    uuid: fix.uuid ?? recordUuid(),
    timestamp: new Date(fix.time).toISOString(),
    is_moving: state.isMoving,
    odometer: Math.round(state.odometer * 10) / 10,
    ...(event ? { event } : {}),
    ...(fix.mock === undefined ? {} : { mock: fix.mock }),
    coords: fix.coords,
    activity: fix.activity,
    battery: fix.battery,
    extras: fix.extras,
    ...extra,
  };
}

/**
 * Renders records (default schema or template, persistence.extras merged) and inserts them, with
 * the record cap applied. Templates are compiled once per configured source, not per record.
 */
export class RecordWriter {
  private compiled = new Map<string, CompiledTemplate>();

  constructor(
    private readonly deps: {
      queue: LocationQueueStore;
      logger: SdkLogger;
      clock: Clock;
      persistence: () => PersistenceConfig;
      /** Records the cap removed to make room (reported as losses). */
      /** Records over the cap left the queue (a record never stored when the cap is 0 has no number). */
      onCapDrop: (removed: RemovedRecords) => void;
    },
  ) {}

  /** Inserts the record unless maxRecordsToPersist is 0 (persist nothing). */
  async write(location: Location): Promise<void> {
    const persistence = this.deps.persistence();
    if (persistence.maxRecordsToPersist === 0) return this.deps.onCapDrop({ count: 1, sequences: [] });
    const template = this.templateFor(location, persistence);
    const createdAt = this.deps.clock.now();
    // The record's sequence (the delivery ledger) is taken in the insert's transaction; the
    // location object carries it on, to events and to recordLocation()'s caller.
    await this.deps.queue.insertNumbered(
      (sequence, epoch) => {
        location.sequence = sequence;
        if (epoch !== null) location.sequence_epoch = epoch;
        else delete location.sequence_epoch;
        return { uuid: location.uuid, createdAt, json: renderRecord(location, persistence.extras, template) };
      },
      // A numbering starting now (a new queue database) gets its epoch (issue 39).
      makeEpochId,
    );
    this.deps.logger.info('Queue', `INSERT ${location.uuid}`);
    if (persistence.maxRecordsToPersist > 0) {
      this.deps.onCapDrop(await this.deps.queue.prune({ maxRecords: persistence.maxRecordsToPersist }));
    }
  }

  private templateFor(location: Location, persistence: PersistenceConfig): CompiledTemplate | null {
    const geofence = location.event === 'geofence';
    const source = geofence ? persistence.geofenceTemplate : persistence.locationTemplate;
    if (!source) return null;
    let template = this.compiled.get(source);
    if (!template) {
      template = compileTemplate(
        source,
        geofence ? 'geofence' : 'location',
        `persistence.${geofence ? 'geofence' : 'location'}Template`,
      );
      // Sources change only with the configuration: keep the two current ones at most.
      if (this.compiled.size >= 2) this.compiled.clear();
      this.compiled.set(source, template);
    }
    return template;
  }
}
