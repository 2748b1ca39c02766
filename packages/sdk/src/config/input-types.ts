import type {
  AppConfig,
  AuthorizationConfig,
  GeolocationConfig,
  HttpConfig,
  JsonObject,
  LoggerConfig,
  LogLevelName,
  PersistenceConfig,
} from './types.js';

/**
 * What `ready()` and `setConfig()` accept, typed so that an object typed with the anchor SDK's own
 * interfaces (grouped v5 `Config` or the flat v4 form) is assignable: no index signatures (an
 * interface has none), enums in the anchor's spellings and numbers, nested anchor objects as
 * `object`. Keys Waypost does not act on are typed too; they are kept and listed, not applied.
 */

type Method = 'POST' | 'PUT' | 'PATCH';
/**
 * The methods a configuration may name. The anchor's v4 HttpMethod also has "OPTIONS": typed, so
 * v4-typed code compiles, and refused when applied (INVALID_CONFIG naming http.method), since an
 * upload is a POST, PUT or PATCH (spec 2.1).
 */
type MethodInput = Method | Lowercase<Method> | 'OPTIONS';
/** The anchor's LogLevel constants (0 OFF .. 5 VERBOSE) or Waypost's names. */
export type LogLevelInput = LogLevelName | 0 | 1 | 2 | 3 | 4 | 5;
/** ASC/DESC, either case, or the anchor's SQLQueryOrder numbers (1 ascending, -1 descending). */
export type OrderInput = 'ASC' | 'DESC' | 'asc' | 'desc' | 1 | -1;

export interface TransistorAuthorizationToken {
  accessToken: string;
  refreshToken: string;
  expires: number;
  /** The server's base URL; uploads go to `${url}/api/locations`. */
  url: string;
}

/**
 * A token as configuration accepts it: url optional, as the anchor's v4 types declare it (code
 * typed with them compiles); without it the token is the anchor demo server's, as the anchor
 * applies it. findOrCreateTransistorAuthorizationToken() always gives the url.
 */
export type TransistorAuthorizationTokenInput = Omit<TransistorAuthorizationToken, 'url'> & { url?: string };

/** Every field Waypost acts on is derived from the resolved types, so a new field is accepted here too. */
export interface HttpConfigInput extends Partial<Omit<HttpConfig, 'method'>> {
  method?: MethodInput;
}

export interface PersistenceConfigInput extends Partial<
  Omit<PersistenceConfig, 'locationsOrderDirection' | 'persistMode'>
> {
  locationsOrderDirection?: OrderInput;
  /** The anchor's PersistMode: 2 all, 1 locations, -1 geofences, 0 none. */
  persistMode?: number;
  disableProviderChangeRecord?: boolean;
  timestampFormat?: 'iso' | 'epoch';
}

export interface AppConfigInput extends Partial<AppConfig> {
  enableHeadless?: boolean;
  schedule?: string[];
  scheduleUseAlarmManager?: boolean;
  notification?: object;
  backgroundPermissionRationale?: object;
  preventSuspend?: boolean;
}

export interface LoggerConfigInput extends Partial<Omit<LoggerConfig, 'logLevel'>> {
  logLevel?: LogLevelInput;
  debug?: boolean;
}

export interface GeolocationConfigInput extends Partial<GeolocationConfig> {
  desiredAccuracy?: number;
  activityType?: number;
  distanceFilter?: number;
  pausesLocationUpdatesAutomatically?: boolean;
  disableElasticity?: boolean;
  elasticityMultiplier?: number;
  stopAfterElapsedMinutes?: number;
  useSignificantChangesOnly?: boolean;
  disableLocationAuthorizationAlert?: boolean;
  locationAuthorizationRequest?: 'Always' | 'WhenInUse' | 'Any';
  locationAuthorizationAlert?: object;
  showsBackgroundLocationIndicator?: boolean;
  locationUpdateInterval?: number;
  fastestLocationUpdateInterval?: number;
  locationTimeout?: number;
  deferTime?: number;
  allowIdenticalLocations?: boolean;
  geofenceProximityRadius?: number;
  geofenceModeHighAccuracy?: boolean;
  maxMonitoredGeofences?: number;
  filter?: object;
  enableTimestampMeta?: boolean;
}

export interface ActivityConfigInput {
  activityRecognitionInterval?: number;
  minimumActivityRecognitionConfidence?: number;
  disableStopDetection?: boolean;
  stopOnStationary?: boolean;
  motionTriggerDelay?: number;
  triggerActivities?: string[] | string;
  disableMotionActivityUpdates?: boolean;
  stopDetectionDelay?: number;
}

export interface AuthorizationConfigInput extends Partial<Omit<AuthorizationConfig, 'strategy'>> {
  /** JWT or SAS, in any case (the anchor's AuthorizationStrategy is 'jwt' / 'sas'). */
  strategy?: string;
}

/** The anchor's v4 flat form: every key at the top level. */
export interface FlatConfigInput
  extends
    Omit<HttpConfigInput, 'rootProperty' | 'timeout' | 'headers' | 'params'>,
    Omit<PersistenceConfigInput, 'extras' | 'locationsOrderDirection'>,
    AppConfigInput,
    LoggerConfigInput,
    GeolocationConfigInput,
    ActivityConfigInput {
  httpRootProperty?: string;
  httpTimeout?: number;
  // The anchor's v4 types these three as `Object`: taken as objects, validated when applied (a
  // header that is not a string, or params that are not JSON, are refused with INVALID_CONFIG).
  headers?: Record<string, string> | object;
  params?: JsonObject | object;
  extras?: JsonObject | object;
  /** The anchor's v4 types it as a string: "ASC" or "DESC" (either case) are what it takes. */
  locationsOrderDirection?: OrderInput | (string & {});
  desiredOdometerAccuracy?: number;
  speedJumpFilter?: number;
  isMoving?: boolean;
  foregroundService?: boolean;
  forceReloadOnLocationChange?: boolean;
  forceReloadOnMotionChange?: boolean;
  forceReloadOnGeofence?: boolean;
  forceReloadOnBoot?: boolean;
  forceReloadOnHeartbeat?: boolean;
  forceReloadOnSchedule?: boolean;
  notificationPriority?: number;
  notificationTitle?: string;
  notificationText?: string;
  notificationColor?: string;
  notificationSmallIcon?: string;
  notificationLargeIcon?: string;
  notificationChannelName?: string;
}

export interface GroupedConfigInput {
  http?: HttpConfigInput;
  persistence?: PersistenceConfigInput;
  app?: AppConfigInput;
  logger?: LoggerConfigInput;
  geolocation?: GeolocationConfigInput;
  activity?: ActivityConfigInput;
  authorization?: AuthorizationConfigInput;
}

export interface ConfigInput extends GroupedConfigInput, FlatConfigInput {
  /** ready() only: false keeps the saved configuration and applies this one over it. */
  reset?: boolean;
  /** The anchor's demo-server shortcut: sets http.url and the authorization to use the token. */
  transistorAuthorizationToken?: TransistorAuthorizationTokenInput;
}
