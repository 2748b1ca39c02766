import { WaypostError } from '../errors.js';
import type { Geofence } from '../geofence/geofence.js';
import type { Geofencing } from '../tracking/geofences.js';

export interface GeofenceMethods {
  addGeofence(geofence: unknown): Promise<boolean>;
  /** Adds all or none: one invalid geofence rejects the whole list. */
  addGeofences(geofences: unknown): Promise<boolean>;
  removeGeofence(identifier: string): Promise<boolean>;
  /** Removes the listed geofences, or all of them; true. The count: store.removeGeofences. */
  removeGeofences(identifiers?: string[]): Promise<boolean>;
  getGeofences(): Promise<Geofence[]>;
  getGeofence(identifier: string): Promise<Geofence>;
  geofenceExists(identifier: string): Promise<boolean>;
}

export function geofenceGroup(geofencing: Geofencing): GeofenceMethods {
  return {
    addGeofence: async (geofence) => {
      await geofencing.add(geofence);
      return true;
    },
    addGeofences: async (geofences) => {
      await geofencing.addAll(geofences);
      return true;
    },
    removeGeofence: async (identifier) => (await geofencing.remove([identifier])) > 0,
    removeGeofences: async (identifiers) => {
      await geofencing.remove(identifiers);
      return true;
    },
    getGeofences: async () => geofencing.all(),
    getGeofence: async (identifier) => {
      const geofence = geofencing.get(identifier);
      if (!geofence) throw new WaypostError('INVALID_GEOFENCE', `No geofence "${identifier}".`, 'identifier');
      return geofence;
    },
    geofenceExists: async (identifier) => geofencing.get(identifier) !== undefined,
  };
}
