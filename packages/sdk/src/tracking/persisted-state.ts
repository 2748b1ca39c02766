import type { KeyValueStore } from '../ports/store.js';
import type { Coords } from '../records/location.js';

export type TrackingMode = 'location' | 'geofences';

/** The SDK's own state that must survive a restart (the configuration is kept separately). */
export interface TrackingState {
  enabled: boolean;
  isMoving: boolean;
  trackingMode: TrackingMode;
  odometer: number;
  lastCoords: Pick<Coords, 'latitude' | 'longitude'> | null;
  bootId: string | null;
}

const KEY = 'state';

export function initialTrackingState(): TrackingState {
  return { enabled: false, isMoving: false, trackingMode: 'location', odometer: 0, lastCoords: null, bootId: null };
}

export async function loadTrackingState(kv: KeyValueStore): Promise<TrackingState> {
  const text = await kv.get(KEY);
  if (!text) return initialTrackingState();
  try {
    return { ...initialTrackingState(), ...(JSON.parse(text) as Partial<TrackingState>) };
  } catch {
    return initialTrackingState();
  }
}

export function saveTrackingState(kv: KeyValueStore, state: TrackingState): Promise<void> {
  return kv.set(KEY, JSON.stringify(state));
}
