import { toAnchorLocation, type AnchorLocation } from '../anchor/anchor-location.js';
import type { DeviceInfo } from '../device.js';
import type { Subscription } from '../events/emitter.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { LocationInput } from '../records/location.js';
import type {
  CurrentPositionRequest,
  LocationErrorCode,
  PositionRequests,
  WatchPositionRequest,
} from '../tracking/position-requests.js';
import type { Tracker } from '../tracking/tracker.js';

/** The anchor's DeviceInfo, plus the uuid Waypost identifies the device by. */
export type AnchorDeviceInfo = DeviceInfo & { framework: string };

/** The anchor's device-side API: the device's description, its location provider, the odometer. */
export interface DeviceMethods {
  getDeviceInfo(): Promise<AnchorDeviceInfo>;
  /** One fix from the location provider; stored unless `persist: false`. */
  getCurrentPosition(options?: CurrentPositionRequest): Promise<AnchorLocation>;
  /** Every fix from the location provider, at most one per `interval` ms; stored when `persist`. */
  watchPosition(
    options: WatchPositionRequest,
    onLocation: (location: AnchorLocation) => void,
    onError?: (code: LocationErrorCode) => void,
  ): Subscription;
  getOdometer(): Promise<number>;
  /**
   * Sets the odometer (metres) and resolves with a location carrying it, as the anchor does: the
   * last known one; else a current position from the location provider; else, when there is no
   * provider or it finds no fix, a location without a position (latitude and longitude NaN,
   * accuracy -1). The odometer is set in every case: setting it never depends on a GPS.
   */
  setOdometer(value: number): Promise<AnchorLocation>;
  resetOdometer(): Promise<AnchorLocation>;
}

export interface DeviceGroupDeps {
  device: DeviceInfo;
  positions: PositionRequests;
  tracker: Tracker;
  clock: Clock;
  log: SdkLogger;
}

const UNKNOWN_POSITION = { latitude: NaN, longitude: NaN, accuracy: -1, speed: -1, heading: -1, altitude: -1 };

export function deviceGroup({ device, positions, tracker, clock, log }: DeviceGroupDeps): DeviceMethods {
  const anchorLocation = async (fix: LocationInput, persist: boolean, extras?: object): Promise<AnchorLocation> => {
    const input = extras ? { ...fix, extras: { ...fix.extras, ...(extras as LocationInput['extras']) } } : fix;
    const location = persist ? await tracker.insertLocation(input) : tracker.locationFrom(input);
    return toAnchorLocation(location, clock.now());
  };
  const setOdometer = async (value: number): Promise<AnchorLocation> => {
    await tracker.setOdometer(value);
    const now = clock.now();
    const known = tracker.knownLocation();
    if (known) return toAnchorLocation(known, now);
    const fix = await positions.current({ persist: false }).catch(() => null);
    if (fix) return toAnchorLocation(tracker.locationFrom(fix), now);
    const placeholder = tracker.locationFrom({ latitude: 0, longitude: 0 });
    return toAnchorLocation({ ...placeholder, coords: { ...placeholder.coords, ...UNKNOWN_POSITION } }, now);
  };
  return {
    getDeviceInfo: async () => ({ ...device, framework: 'waypost' }),
    getCurrentPosition: async (options = {}) => {
      const fix = await positions.current(options);
      return anchorLocation(fix, options.persist !== false, options.extras);
    },
    watchPosition: (options, onLocation, onError) =>
      positions.watch(
        options ?? {},
        (fix) =>
          void anchorLocation(fix, options?.persist === true, options?.extras).then(onLocation, (error: unknown) =>
            log.warn('Location', `watchPosition: ${(error as Error).message}`),
          ),
        (code) => onError?.(code),
      ),
    getOdometer: async () => tracker.state.odometer,
    setOdometer,
    resetOdometer: () => setOdometer(0),
  };
}
