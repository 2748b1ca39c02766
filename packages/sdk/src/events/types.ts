import type { NetworkType } from '../ports/network.js';
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

export interface MotionChangeEvent {
  isMoving: boolean;
  /** The motionchange record; null when no position is known yet (changePace before any location). */
  location: Location | null;
}

export interface ConnectivityChangeEvent {
  connected: boolean;
  type: NetworkType;
}

export interface HeartbeatEvent {
  timestamp: string;
}

export interface AuthorizationEvent {
  status: number;
  success: boolean;
  error: string | null;
  response: Record<string, unknown> | null;
}

export interface GeofenceEvent {
  identifier: string;
  action: GeofenceAction;
  location: Location;
  extras: Record<string, unknown>;
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
  motionchange: MotionChangeEvent;
  connectivitychange: ConnectivityChangeEvent;
  heartbeat: HeartbeatEvent;
  authorization: AuthorizationEvent;
  geofence: GeofenceEvent;
  enabledchange: boolean;
  remotecommand: RemoteCommandEvent;
  drop: DropEvent;
}
