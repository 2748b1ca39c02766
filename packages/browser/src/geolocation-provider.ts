import type { LocationInput, LocationProvider } from '@waypost/sdk/internal';

/** The parts of the Geolocation API (navigator.geolocation) the provider uses. */
export interface GeolocationLike {
  watchPosition(
    success: (position: GeolocationPosition) => void,
    error?: (error: GeolocationPositionError) => void,
    options?: PositionOptions,
  ): number;
  clearWatch(id: number): void;
}

export interface GeolocationProviderOptions {
  /** Ask for GPS-grade fixes (more battery). Default true: a tracker wants them. */
  enableHighAccuracy?: boolean;
  /** A fix may be this old when delivered (ms). Default 0: only fresh fixes. */
  maximumAge?: number;
  /** How long the browser may take for one fix before reporting TIMEOUT (ms). Default 60 s. */
  timeout?: number;
  geolocation?: GeolocationLike;
}

/** The Geolocation API's error codes as stable Waypost provider codes. */
const ERROR_CODES: Record<number, string> = {
  1: 'PERMISSION_DENIED',
  2: 'POSITION_UNAVAILABLE',
  3: 'TIMEOUT',
};

/** One GeolocationPosition as recordLocation() input; the API's null means unknown (-1). */
export function positionToInput(position: GeolocationPosition): LocationInput {
  const c = position.coords;
  const known = (value: number | null) => (value === null || Number.isNaN(value) ? -1 : value);
  return {
    latitude: c.latitude,
    longitude: c.longitude,
    accuracy: known(c.accuracy),
    speed: known(c.speed),
    heading: known(c.heading),
    altitude: known(c.altitude),
    altitude_accuracy: known(c.altitudeAccuracy),
    timestamp: position.timestamp,
  };
}

/**
 * The browser's Geolocation API (watchPosition) as a location provider. A denied permission is
 * reported through onError with code PERMISSION_DENIED; the browser keeps the watch for the other
 * errors and delivers again when it can.
 */
export function createGeolocationProvider(options: GeolocationProviderOptions = {}): LocationProvider {
  let watch: number | null = null;
  const geolocation = () => {
    const api = options.geolocation ?? (globalThis.navigator as { geolocation?: GeolocationLike }).geolocation;
    if (!api) throw Object.assign(new Error('This browser has no Geolocation API'), { code: 'UNSUPPORTED' });
    return api;
  };
  return {
    name: 'Geolocation API',
    start(onFix, onError) {
      if (watch !== null) return;
      let api: GeolocationLike;
      try {
        api = geolocation();
      } catch (error) {
        onError(error as Error & { code?: string });
        return;
      }
      watch = api.watchPosition(
        (position) => onFix(positionToInput(position)),
        (error) =>
          onError(
            Object.assign(new Error(error.message || 'Geolocation failed'), {
              code: ERROR_CODES[error.code] ?? 'GEOLOCATION',
            }),
          ),
        {
          enableHighAccuracy: options.enableHighAccuracy ?? true,
          maximumAge: options.maximumAge ?? 0,
          timeout: options.timeout ?? 60_000,
        },
      );
    },
    stop() {
      if (watch === null) return;
      geolocation().clearWatch(watch);
      watch = null;
    },
  };
}
