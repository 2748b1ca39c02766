import type { Geofence } from '../geofence/geofence.js';
import type { GeofenceAction, MotionActivityType } from '../records/location.js';
import type { AnchorLocation } from './anchor-location.js';

// The anchor's event payloads that differ from the engine's (events/types.ts), as its types
// declare them. The facade's event table (facade/event-table.ts) turns the one into the other.

export interface MotionChangeEvent {
  isMoving: boolean;
  location: AnchorLocation;
}
export interface HeartbeatEvent {
  location: AnchorLocation;
  /** Waypost: when the heartbeat fired (the location may be older). */
  timestamp: string;
}
export interface GeofenceEvent {
  timestamp: string;
  identifier: string;
  action: GeofenceAction;
  location: AnchorLocation;
  extras: Record<string, unknown>;
  geofence?: Geofence;
}
export interface MotionActivityEvent {
  activity: MotionActivityType;
  confidence: number;
}
