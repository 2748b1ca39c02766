import type { NetworkType } from '../ports/network.js';
import type { Geofence } from '../geofence/geofence.js';
import type { GeofenceAction, Location } from '../records/location.js';

/** One per upload request, success or not (spec 6). `success` and `isSuccess` are the same value. */
export interface HttpEvent {
  success: boolean;
  isSuccess: boolean;
  /** The HTTP status; 0 when no response arrived (network failure or timeout). */
  status: number;
  responseText: string;
  /** The uuids of the records the request carried, in the order they were sent. */
  uuids: string[];
  /**
   * Waypost: why no response arrived, when `status` is 0 (for example "Request to host:9 failed:
   * ECONNREFUSED"); absent when the server answered.
   */
  error?: string;
}

/** Why records left the queue without being delivered. */
export type DropReason = 'ttl' | 'cap' | 'destroyed';

/**
 * Records removed without delivery: `ttl` (older than persistence.maxDaysToPersist), `cap` (over
 * persistence.maxRecordsToPersist, oldest first), `destroyed` (destroyLocations/destroyLocation).
 */
export interface DropEvent {
  reason: DropReason;
  count: number;
}

/** Internal: the facade hands listeners the anchor's MotionChangeEvent (facade/event-table.ts). */
export interface RawMotionChange {
  isMoving: boolean;
  /** The motionchange record; null when no position is known yet (changePace before any location). */
  location: Location | null;
}

export interface ConnectivityChangeEvent {
  connected: boolean;
  type: NetworkType;
}

/** Internal: the facade adds the last known location (the anchor's HeartbeatEvent, facade/event-table.ts). */
export interface RawHeartbeat {
  timestamp: string;
}

export interface AuthorizationEvent {
  status: number;
  success: boolean;
  error: string | null;
  response: Record<string, unknown> | null;
}

/** Internal: the facade hands listeners the anchor's GeofenceEvent (facade/event-table.ts). */
export interface RawGeofence {
  identifier: string;
  action: GeofenceAction;
  location: Location;
  extras: Record<string, unknown>;
  geofence: Geofence | undefined;
}

/** The anchor's GeofencesChangeEvent: geofences added (`on`) and identifiers removed (`off`). */
export interface GeofencesChangeEvent {
  on: Geofence[];
  off: string[];
}

/** The anchor's ProviderChangeEvent: the location provider's availability. */
export interface ProviderChangeEvent {
  enabled: boolean;
  /** The anchor's AuthorizationStatus; 3 (Always): a Linux host grants location to the process. */
  status: number;
  network: boolean;
  gps: boolean;
  /** The anchor's AccuracyAuthorization: 0 (Full). */
  accuracyAuthorization: number;
}

export interface RemoteCommandEvent {
  command: string;
  args: unknown[];
  ok: boolean;
  error: string | null;
}

export interface SdkEvents {
  http: HttpEvent;
  location: Location;
  motionchange: RawMotionChange;
  connectivitychange: ConnectivityChangeEvent;
  heartbeat: RawHeartbeat;
  authorization: AuthorizationEvent;
  geofence: RawGeofence;
  geofenceschange: GeofencesChangeEvent;
  providerchange: ProviderChangeEvent;
  enabledchange: boolean;
  remotecommand: RemoteCommandEvent;
  drop: DropEvent;
}
