import type { NetworkType } from '../ports/network.js';
import type { GeofenceAction, Location } from '../records/location.js';

/** One per upload request, success or not (spec 6). `success` and `isSuccess` are the same value. */
export interface HttpEvent {
  success: boolean;
  isSuccess: boolean;
  /** The HTTP status; 0 when no response arrived (network failure or timeout). */
  status: number;
  responseText: string;
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
}
