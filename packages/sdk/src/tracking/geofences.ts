import { WaypostError } from '../errors.js';
import type { Emitter } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import type { GeofenceTransition } from '../geofence/evaluate.js';
import type { Geofence } from '../geofence/geofence.js';
import { GeofenceManager } from '../geofence/geofence-manager.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { GeofenceStore, KeyValueStore } from '../ports/store.js';
import type { AutoTrigger } from '../queue/upload-policy.js';
import type { Fix, Location } from '../records/location.js';
import type { Tracker } from './tracker.js';

export interface GeofencingDeps {
  store: GeofenceStore;
  kv: KeyValueStore;
  clock: Clock;
  logger: SdkLogger;
  events: Emitter<SdkEvents>;
  tracker: Tracker;
  trigger: (trigger: AutoTrigger) => void;
}

/** The geofence half of tracking: the geofence API and the records transitions become. */
export class Geofencing {
  private readonly manager: GeofenceManager;
  private closed = false;

  constructor(private readonly deps: GeofencingDeps) {
    this.manager = new GeofenceManager({
      store: deps.store,
      kv: deps.kv,
      clock: deps.clock,
      onTimedTransition: (transition) => void this.onTimedTransition(transition),
    });
  }

  load(): Promise<void> {
    return this.manager.load();
  }

  /** Records each transition a new location causes. */
  async evaluate(fix: Fix): Promise<void> {
    for (const transition of await this.manager.evaluate(fix.coords)) await this.record(transition, fix);
  }

  async add(geofence: unknown): Promise<Geofence> {
    const [added] = await this.manager.add([geofence]);
    this.deps.logger.info('Geofence', `added ${added!.identifier}`);
    return added!;
  }

  /** Adds all or none: one invalid geofence rejects the whole list. */
  async addAll(geofences: unknown): Promise<Geofence[]> {
    if (!Array.isArray(geofences))
      throw new WaypostError('INVALID_GEOFENCE', 'addGeofences: expected a list of geofences.');
    const added = await this.manager.add(geofences);
    this.deps.logger.info('Geofence', `added ${added.length} geofences`);
    return added;
  }

  /** Removes the listed geofences, or all of them when no list is given. */
  remove(identifiers?: string[]): Promise<number> {
    return this.manager.remove(identifiers);
  }

  all(): Geofence[] {
    return this.manager.all();
  }

  close(): void {
    this.closed = true;
    this.manager.close();
  }

  private async record(transition: GeofenceTransition, fix: Fix): Promise<Location> {
    const geofence = this.manager.get(transition.identifier);
    const extras = geofence?.extras ?? {};
    const location = await this.deps.tracker.persistLocation(fix, 'geofence', true, {
      geofence: { identifier: transition.identifier, action: transition.action, extras },
    });
    this.deps.logger.info('Geofence', `${transition.action} ${transition.identifier}`);
    this.deps.events.emit('geofence', {
      identifier: transition.identifier,
      action: transition.action,
      location,
      extras,
    });
    return location;
  }

  private async onTimedTransition(transition: GeofenceTransition): Promise<void> {
    const fix = this.deps.tracker.latestFix;
    if (this.closed || !this.deps.tracker.enabled || !fix) return;
    await this.record(transition, { ...fix, time: this.deps.clock.now() });
    this.deps.trigger('location');
  }
}
