import type { Clock, TimerHandle } from '../ports/clock.js';
import type { GeofenceStore, KeyValueStore } from '../ports/store.js';
import { evaluateGeofence, type GeofencePresence, type GeofenceTransition } from './evaluate.js';
import { parseGeofence, type Geofence } from './geofence.js';

const PRESENCE_KEY = 'geofence.presence';

type Point = { latitude: number; longitude: number };

export interface GeofenceManagerDeps {
  store: GeofenceStore;
  kv: KeyValueStore;
  clock: Clock;
  /** geolocation.geofenceInitialTriggerEntry (default true). */
  initialTriggerEntry?: () => boolean;
  /** A DWELL that fell due on its timer, between locations. */
  onTimedTransition: (transition: GeofenceTransition) => void;
}

/**
 * The geofences, persisted, and where the device is relative to each (also persisted, so an EXIT
 * after a restart is still an EXIT). DWELL is timed on the injected clock from the entry.
 */
export class GeofenceManager {
  private geofences = new Map<string, Geofence>();
  private presence = new Map<string, GeofencePresence>();
  private dwellTimers = new Map<string, TimerHandle>();
  private lastPoint: Point | null = null;

  constructor(private readonly deps: GeofenceManagerDeps) {}

  async load(): Promise<void> {
    for (const row of await this.deps.store.all()) {
      try {
        this.geofences.set(row.identifier, parseGeofence(JSON.parse(row.json)));
      } catch {
        // A row that no longer validates is skipped rather than breaking the SDK's start.
      }
    }
    const saved = await this.deps.kv.get(PRESENCE_KEY);
    if (saved) {
      try {
        this.presence = new Map(Object.entries(JSON.parse(saved) as Record<string, GeofencePresence>));
      } catch {
        this.presence = new Map();
      }
    }
  }

  /** Validates every geofence before storing any: a bad one in a list adds none. */
  async add(inputs: readonly unknown[]): Promise<Geofence[]> {
    const parsed = inputs.map((input) => parseGeofence(input));
    await this.deps.store.upsert(parsed.map((g) => ({ identifier: g.identifier, json: JSON.stringify(g) })));
    for (const geofence of parsed) {
      this.geofences.set(geofence.identifier, geofence);
      this.presence.delete(geofence.identifier);
      this.cancelDwell(geofence.identifier);
    }
    await this.savePresence();
    return parsed;
  }

  async remove(identifiers?: readonly string[]): Promise<number> {
    const ids = identifiers ?? [...this.geofences.keys()];
    const removed = identifiers ? await this.deps.store.remove(ids) : await this.deps.store.removeAll();
    for (const id of ids) {
      this.geofences.delete(id);
      this.presence.delete(id);
      this.cancelDwell(id);
    }
    await this.savePresence();
    return removed;
  }

  all(): Geofence[] {
    return [...this.geofences.values()].map((g) => structuredClone(g));
  }

  get(identifier: string): Geofence | undefined {
    return this.geofences.get(identifier);
  }

  /** The transitions caused by one location, in geofence order. */
  async evaluate(point: Point): Promise<GeofenceTransition[]> {
    this.lastPoint = { latitude: point.latitude, longitude: point.longitude };
    if (this.geofences.size === 0) return [];
    const now = this.deps.clock.now();
    const transitions: GeofenceTransition[] = [];
    let changed = false;
    for (const geofence of this.geofences.values()) {
      const before = this.presence.get(geofence.identifier);
      const result = evaluateGeofence(geofence, before, point, now, this.deps.initialTriggerEntry?.() ?? true);
      transitions.push(...result.transitions);
      if (JSON.stringify(before) !== JSON.stringify(result.presence)) {
        changed = true;
        this.presence.set(geofence.identifier, result.presence);
        if (result.presence.inside && !before?.inside) this.scheduleDwell(geofence);
        if (!result.presence.inside) this.cancelDwell(geofence.identifier);
      }
    }
    if (changed) await this.savePresence();
    return transitions;
  }

  close(): void {
    for (const id of [...this.dwellTimers.keys()]) this.cancelDwell(id);
  }

  private scheduleDwell(geofence: Geofence): void {
    if (!geofence.notifyOnDwell || geofence.loiteringDelay === 0) return;
    this.cancelDwell(geofence.identifier);
    const handle = this.deps.clock.setTimeout(() => {
      this.dwellTimers.delete(geofence.identifier);
      void this.evaluateOne(geofence.identifier);
    }, geofence.loiteringDelay);
    this.dwellTimers.set(geofence.identifier, handle);
  }

  /** The DWELL timer: judged from the latest position, which may have moved since the entry. */
  private async evaluateOne(identifier: string): Promise<void> {
    const geofence = this.geofences.get(identifier);
    const before = this.presence.get(identifier);
    if (!geofence || !before?.inside || !this.lastPoint) return;
    const result = evaluateGeofence(geofence, before, this.lastPoint, this.deps.clock.now());
    this.presence.set(identifier, result.presence);
    await this.savePresence();
    for (const transition of result.transitions) this.deps.onTimedTransition(transition);
  }

  private cancelDwell(identifier: string): void {
    const handle = this.dwellTimers.get(identifier);
    if (handle !== undefined) this.deps.clock.clearTimeout(handle);
    this.dwellTimers.delete(identifier);
  }

  private savePresence(): Promise<void> {
    return this.deps.kv.set(PRESENCE_KEY, JSON.stringify(Object.fromEntries(this.presence)));
  }
}
