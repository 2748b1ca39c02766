import type { GeofenceAction, Location } from '../records/location.js';

/**
 * A location as the anchor's event payloads carry it: the stored record plus the fields the
 * anchor adds when it hands a location to the app (`recorded_at`, `age`, `odometer_error`, and a
 * `timestamp` on the geofence trigger). The uploaded record is not changed by this view.
 */
export interface AnchorLocation extends Omit<Location, 'geofence'> {
  recorded_at: string;
  /** Milliseconds between the fix and the moment it was handed over. */
  age: number;
  /** Metres; Waypost does not estimate the odometer's error, so this is 0. */
  odometer_error: number;
  geofence?: {
    identifier: string;
    action: GeofenceAction;
    timestamp: string;
    extras: Location['extras'];
  };
}

export function toAnchorLocation(location: Location, now: number): AnchorLocation {
  const { geofence, ...rest } = location;
  const time = Date.parse(location.timestamp);
  return {
    ...rest,
    recorded_at: location.timestamp,
    age: Number.isFinite(time) ? Math.max(0, now - time) : 0,
    odometer_error: 0,
    ...(geofence ? { geofence: { ...geofence, timestamp: location.timestamp } } : {}),
  };
}
