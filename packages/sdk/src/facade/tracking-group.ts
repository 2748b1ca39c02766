import type { State } from '../anchor/anchor-state.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Location } from '../records/location.js';
import type { TrackingState } from '../tracking/persisted-state.js';
import type { Tracker } from '../tracking/tracker.js';

export interface TrackingMethods {
  start(): Promise<State>;
  /** Geofences-only mode: only geofence records are queued. */
  startGeofences(): Promise<State>;
  stop(): Promise<State>;
  /** Forces the motion state; entering either state flushes the queue whatever the threshold. */
  changePace(isMoving: boolean): Promise<State>;
  /** Waypost: a location from the device's provider (requires start()); resolves with the record. */
  recordLocation(input: unknown): Promise<Location>;
  /** Waypost: the tracking state, read synchronously (getState() is the anchor's async form). */
  readonly tracking: Readonly<Pick<TrackingState, 'enabled' | 'isMoving' | 'trackingMode' | 'odometer'>>;
}

export interface TrackingGroupDeps {
  lifecycle: Pick<Lifecycle, 'start' | 'stop'>;
  tracker: Tracker;
  state: () => State;
}

export function trackingGroup({ lifecycle, tracker, state }: TrackingGroupDeps): TrackingMethods {
  return {
    start: async () => {
      await lifecycle.start('location', 'start');
      return state();
    },
    startGeofences: async () => {
      await lifecycle.start('geofences', 'startGeofences');
      return state();
    },
    stop: async () => {
      await lifecycle.stop();
      return state();
    },
    changePace: async (isMoving) => {
      await tracker.changePace(isMoving);
      return state();
    },
    recordLocation: (input) => tracker.recordLocation(input),
    get tracking() {
      const { enabled, isMoving, trackingMode, odometer } = tracker.state;
      return { enabled, isMoving, trackingMode, odometer };
    },
  };
}
