/**
 * The anchor's enums, as its app code reads them off the SDK object: v5 style
 * (`BackgroundGeolocation.LogLevel.Verbose`) and the v4 constants (`LOG_LEVEL_VERBOSE`), so that
 * `ready({ logLevel: BackgroundGeolocation.LogLevel.Verbose })` runs unchanged. Values are the
 * anchor's own (@transistorsoft/background-geolocation-types 5.3.8; a test compares them).
 */
export const ANCHOR_ENUMS = deepFreeze({
  AuthorizationStatus: { NotDetermined: 0, Restricted: 1, Denied: 2, Always: 3, WhenInUse: 4, DeniedAlways: 5 },
  Permission: { Location: 'location', Motion: 'motion' },
  LogLevel: { Off: 0, Error: 1, Warning: 2, Info: 3, Debug: 4, Verbose: 5 },
  DesiredAccuracy: { Navigation: -2, High: -1, Medium: 10, Low: 100, VeryLow: 1000, Lowest: 3000 },
  PersistMode: { All: 2, Location: 1, Geofence: -1, None: 0 },
  AuthorizationStrategy: { Jwt: 'jwt', Sas: 'sas' },
  LocationRequest: { Always: 'Always', WhenInUse: 'WhenInUse', Any: 'Any' },
  LocationFilterPolicy: { PassThrough: 0, Adjust: 1, Conservative: 2 },
  KalmanProfile: { Default: 0, Aggressive: 1, Conservative: 2 },
  HttpMethod: { Post: 'POST', Put: 'PUT', Patch: 'PATCH' },
  TriggerActivity: {
    Walking: 'walking',
    OnFoot: 'on_foot',
    Running: 'running',
    OnBicycle: 'on_bicycle',
    InVehicle: 'in_vehicle',
  },
  NotificationPriority: { Default: 0, High: 1, Low: -1, Max: 2, Min: -2 },
  MotionActivityType: {
    Still: 'still',
    Walking: 'walking',
    OnFoot: 'on_foot',
    Running: 'running',
    OnBicycle: 'on_bicycle',
    InVehicle: 'in_vehicle',
    Unknown: 'unknown',
  },
  TrackingMode: { Geofences: 0, Location: 1 },
  AccuracyAuthorization: { Full: 0, Reduced: 1 },
  LogLevelName: { Debug: 'debug', Notice: 'notice', Info: 'info', Warn: 'warn', Error: 'error' },
  GeofenceAction: { Enter: 'ENTER', Exit: 'EXIT', Dwell: 'DWELL' },
  Event: {
    Boot: 'boot',
    Terminate: 'terminate',
    Location: 'location',
    MotionChange: 'motionchange',
    ActivityChange: 'activitychange',
    LocationFilter: 'locationfilter',
    Geofence: 'geofence',
    GeofencesChange: 'geofenceschange',
    Http: 'http',
    Heartbeat: 'heartbeat',
    ProviderChange: 'providerchange',
    Schedule: 'schedule',
    Notification: 'notification',
    NotificationAction: 'notificationaction',
    Authorization: 'authorization',
    ConnectivityChange: 'connectivitychange',
    EnabledChange: 'enabledchange',
    PowerSaveChange: 'powersavechange',
  },
  ActivityType: { Other: 1, AutomotiveNavigation: 2, Fitness: 3, OtherNavigation: 4, Airborne: 5 },
  LocationError: {
    LocationUnknown: 0,
    PermissionDenied: 1,
    NetworkError: 2,
    BackgroundWhenInUse: 3,
    Timeout: 408,
    Cancelled: 499,
  },
  LocationFilterReason: {
    LowAccuracy: 'low-accuracy',
    ImpliedSpeed: 'implied-speed',
    OutlierCapped: 'outlier-capped',
    GeofenceSpuriousExit: 'geofence-spurious-exit',
    GeofenceDuplicateEnter: 'geofence-duplicate-enter',
  },
  SQLQueryOrder: { Asc: 1, Desc: -1 },
} as const);

/** The enums the anchor's v4 API also had as flat constants (`DESIRED_ACCURACY_HIGH`, ...). */
const V4_ENUMS = [
  'LogLevel',
  'DesiredAccuracy',
  'PersistMode',
  'AuthorizationStatus',
  'NotificationPriority',
  'ActivityType',
  'AccuracyAuthorization',
] as const;

const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** The same rule in the type system, so that `bg.LOG_LEVEL_VERBOSE` is typed and a typo is not. */
type SnakeTail<S extends string> = S extends `${infer C}${infer R}`
  ? C extends Lowercase<C>
    ? `${Uppercase<C>}${SnakeTail<R>}`
    : `_${C}${SnakeTail<R>}`
  : '';
type Snake<S extends string> = S extends `${infer C}${infer R}` ? `${Uppercase<C>}${SnakeTail<R>}` : '';
type V4Enum = (typeof V4_ENUMS)[number];
type V4Of<G extends V4Enum> = {
  readonly [K in keyof AnchorEnums[G] & string as `${Snake<G>}_${Snake<K>}`]: AnchorEnums[G][K];
};
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type AnchorV4Constants = UnionToIntersection<{ [G in V4Enum]: V4Of<G> }[V4Enum]>;

/** `DesiredAccuracy.VeryLow` -> `DESIRED_ACCURACY_VERY_LOW`: the v4 names are the v5 ones in upper snake case. */
export const ANCHOR_V4_CONSTANTS = Object.freeze(
  Object.fromEntries(
    V4_ENUMS.flatMap((group) =>
      Object.entries(ANCHOR_ENUMS[group]).map(([key, value]) => [`${snake(group)}_${snake(key)}`, value]),
    ),
  ),
) as AnchorV4Constants;

export type AnchorEnums = typeof ANCHOR_ENUMS;

function deepFreeze<T extends Record<string, object>>(table: T): { readonly [K in keyof T]: Readonly<T[K]> } {
  for (const value of Object.values(table)) Object.freeze(value);
  return Object.freeze(table);
}
