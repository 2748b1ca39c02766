import type { AuthorizationStatus } from '../auth/token-authorizer.js';
import { cloneConfig } from '../config/fields.js';
import type { AppConfig, Config, GeolocationConfig, HttpConfig, PersistenceConfig } from '../config/types.js';
import { LogLevel } from '../log/levels.js';
import type { TrackingState } from '../tracking/persisted-state.js';

/** The anchor's LogLevel numbers (0 OFF .. 5 VERBOSE). */
export type LogLevelNumber = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * getState() as the anchor's State declares it: the configuration by group (a value that is not
 * set is absent, not null; the log level is its number; `authorization` is there once an access
 * token is), the kept anchor keys back in their groups, and the tracking state. The resolved
 * configuration with every field (nulls included) stays at `bg.config.current`.
 */
export interface State {
  http: Omit<HttpConfig, 'url'> & { url?: string };
  persistence: Omit<PersistenceConfig, 'locationTemplate' | 'geofenceTemplate'> & {
    locationTemplate?: string;
    geofenceTemplate?: string;
  };
  app: AppConfig;
  logger: { logLevel: LogLevelNumber; logMaxDays: number };
  geolocation: GeolocationConfig;
  authorization?: {
    strategy: string;
    accessToken: string;
    refreshToken?: string;
    refreshUrl?: string;
    refreshPayload: Record<string, string>;
    refreshHeaders: Record<string, string>;
    expires: number;
  };
  enabled: boolean;
  isMoving: boolean;
  /** The anchor's TrackingMode: 1 location tracking, 0 geofences only. */
  trackingMode: 0 | 1;
  /** Metres. */
  odometer: number;
  /** Waypost does not estimate the odometer's error: 0. */
  odometerError: number;
  /** Waypost has no scheduler: false. */
  schedulerEnabled: boolean;
  didLaunchInBackground: boolean;
  didDeviceReboot: boolean;
  /** Waypost: none, ok, backoff (refresh failing, retrying later) or failed (refresh token refused). */
  authorizationStatus: AuthorizationStatus;
  /** Waypost: the anchor keys given that Waypost keeps but does not act on, by v5 name. */
  ignored: Record<string, unknown>;
  /** Waypost: ISO-8601 time before which automatic uploads wait (a server's Retry-After); null when none. */
  retryAfter: string | null;
}

function withoutNulls(group: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(group).filter(([, value]) => value !== null));
}

export function anchorState(
  config: Config,
  ignored: Record<string, unknown>,
  tracking: TrackingState,
  extra: { authorizationStatus: AuthorizationStatus; didDeviceReboot: boolean; retryAfter: number | null },
): State {
  const c = cloneConfig(config);
  const groups: Record<string, Record<string, unknown>> = {
    http: withoutNulls(c.http),
    persistence: withoutNulls(c.persistence),
    app: { ...c.app },
    logger: { logLevel: LogLevel[c.logger.logLevel], logMaxDays: c.logger.logMaxDays },
    geolocation: { ...c.geolocation },
    activity: {},
  };
  if (c.authorization.accessToken !== null) groups.authorization = withoutNulls(c.authorization);
  // Kept keys go back where the anchor's State has them (`state.geolocation.distanceFilter`).
  for (const [dotted, value] of Object.entries(ignored)) {
    const dot = dotted.indexOf('.');
    const group = dot > 0 ? groups[dotted.slice(0, dot)] : undefined;
    if (group && !Object.hasOwn(group, dotted.slice(dot + 1))) group[dotted.slice(dot + 1)] = structuredClone(value);
  }
  return {
    ...(groups as unknown as Pick<State, 'http' | 'persistence' | 'app' | 'logger' | 'geolocation'>),
    ...(groups.authorization ? { authorization: groups.authorization as unknown as State['authorization'] } : {}),
    activity: groups.activity,
    enabled: tracking.enabled,
    isMoving: tracking.isMoving,
    trackingMode: tracking.trackingMode === 'location' ? 1 : 0,
    odometer: tracking.odometer,
    odometerError: 0,
    schedulerEnabled: false,
    didLaunchInBackground: false,
    didDeviceReboot: extra.didDeviceReboot,
    authorizationStatus: extra.authorizationStatus,
    ignored: structuredClone(ignored),
    retryAfter: extra.retryAfter === null ? null : new Date(extra.retryAfter).toISOString(),
  } as State;
}
