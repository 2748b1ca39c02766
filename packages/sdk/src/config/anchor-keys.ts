import { WaypostError } from '../errors.js';

/**
 * Keys of the anchor SDK's configuration that steer things Waypost does not do on this platform
 * (GPS hardware, OS notifications, permissions, scheduling, activity recognition). They are
 * accepted, kept under the anchor's v5 group, listed in getState() and noted once in the log, so a
 * configuration written for the anchor validates unchanged. Their values are still checked for
 * the kind the anchor's types declare: a string where a boolean belongs is a mistake either way.
 */
export type KeptKind = 'boolean' | 'number' | 'string' | 'object' | 'strings' | 'activities';

/** The anchor's v5 groups; `activity` exists only to hold kept keys. */
export type AnchorGroup = 'geolocation' | 'app' | 'persistence' | 'logger' | 'activity';

interface KeptKey {
  group: AnchorGroup;
  kind: KeptKind;
  /** Allowed values, when the anchor declares an enum. */
  values?: readonly (string | number)[];
}

const DESIRED_ACCURACY = [-2, -1, 0, 10, 100, 1000, 3000];
const ACTIVITY_TYPE = [1, 2, 3, 4, 5];

const GROUPED: Record<AnchorGroup, Record<string, Omit<KeptKey, 'group'>>> = {
  geolocation: {
    desiredAccuracy: { kind: 'number', values: DESIRED_ACCURACY },
    activityType: { kind: 'number', values: ACTIVITY_TYPE },
    distanceFilter: { kind: 'number' },
    pausesLocationUpdatesAutomatically: { kind: 'boolean' },
    disableElasticity: { kind: 'boolean' },
    elasticityMultiplier: { kind: 'number' },
    stopAfterElapsedMinutes: { kind: 'number' },
    useSignificantChangesOnly: { kind: 'boolean' },
    disableLocationAuthorizationAlert: { kind: 'boolean' },
    locationAuthorizationRequest: { kind: 'string', values: ['Always', 'WhenInUse', 'Any'] },
    locationAuthorizationAlert: { kind: 'object' },
    showsBackgroundLocationIndicator: { kind: 'boolean' },
    locationUpdateInterval: { kind: 'number' },
    fastestLocationUpdateInterval: { kind: 'number' },
    locationTimeout: { kind: 'number' },
    deferTime: { kind: 'number' },
    allowIdenticalLocations: { kind: 'boolean' },
    geofenceProximityRadius: { kind: 'number' },
    geofenceModeHighAccuracy: { kind: 'boolean' },
    maxMonitoredGeofences: { kind: 'number' },
    filter: { kind: 'object' },
    enableTimestampMeta: { kind: 'boolean' },
    // v4-only keys, kept beside their v5 relatives.
    desiredOdometerAccuracy: { kind: 'number' },
    speedJumpFilter: { kind: 'number' },
    isMoving: { kind: 'boolean' },
  },
  app: {
    enableHeadless: { kind: 'boolean' },
    schedule: { kind: 'strings' },
    scheduleUseAlarmManager: { kind: 'boolean' },
    notification: { kind: 'object' },
    backgroundPermissionRationale: { kind: 'object' },
    preventSuspend: { kind: 'boolean' },
    foregroundService: { kind: 'boolean' },
    forceReloadOnLocationChange: { kind: 'boolean' },
    forceReloadOnMotionChange: { kind: 'boolean' },
    forceReloadOnGeofence: { kind: 'boolean' },
    forceReloadOnBoot: { kind: 'boolean' },
    forceReloadOnHeartbeat: { kind: 'boolean' },
    forceReloadOnSchedule: { kind: 'boolean' },
    notificationPriority: { kind: 'number', values: [0, 1, -1, 2, -2] },
    notificationTitle: { kind: 'string' },
    notificationText: { kind: 'string' },
    notificationColor: { kind: 'string' },
    notificationSmallIcon: { kind: 'string' },
    notificationLargeIcon: { kind: 'string' },
    notificationChannelName: { kind: 'string' },
  },
  persistence: {
    disableProviderChangeRecord: { kind: 'boolean' },
    timestampFormat: { kind: 'string', values: ['iso', 'epoch'] },
  },
  logger: {
    debug: { kind: 'boolean' },
  },
  activity: {
    activityRecognitionInterval: { kind: 'number' },
    minimumActivityRecognitionConfidence: { kind: 'number' },
    disableStopDetection: { kind: 'boolean' },
    stopOnStationary: { kind: 'boolean' },
    motionTriggerDelay: { kind: 'number' },
    triggerActivities: { kind: 'activities' },
    disableMotionActivityUpdates: { kind: 'boolean' },
    stopDetectionDelay: { kind: 'number' },
  },
};

/** v4-only keys that live in the v5 groups only as their grouped relatives. */
const V4_ONLY = new Set([
  'desiredOdometerAccuracy',
  'speedJumpFilter',
  'isMoving',
  'foregroundService',
  'forceReloadOnLocationChange',
  'forceReloadOnMotionChange',
  'forceReloadOnGeofence',
  'forceReloadOnBoot',
  'forceReloadOnHeartbeat',
  'forceReloadOnSchedule',
  'notificationPriority',
  'notificationTitle',
  'notificationText',
  'notificationColor',
  'notificationSmallIcon',
  'notificationLargeIcon',
  'notificationChannelName',
]);

export const ANCHOR_GROUPS = Object.keys(GROUPED) as AnchorGroup[];

/** The kept keys of one v5 group (what `{ geolocation: { desiredAccuracy } }` may hold). */
export function keptKeysOf(group: string): ReadonlyMap<string, KeptKey> {
  const entries = GROUPED[group as AnchorGroup];
  if (!entries) return new Map();
  return new Map(
    Object.entries(entries)
      .filter(([key]) => !V4_ONLY.has(key))
      .map(([key, spec]) => [key, { group: group as AnchorGroup, ...spec }]),
  );
}

/** Every kept key by its flat (v4) name, with the v5 group it belongs to. */
export const KEPT_FLAT_KEYS: ReadonlyMap<string, KeptKey> = new Map(
  ANCHOR_GROUPS.flatMap((group) =>
    Object.entries(GROUPED[group]).map(([key, spec]) => [key, { group, ...spec }] as const),
  ),
);

const TRIGGER_ACTIVITIES = ['walking', 'on_foot', 'running', 'on_bicycle', 'in_vehicle'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function reject(key: string, value: unknown, expected: string): never {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  throw new WaypostError('INVALID_CONFIG', `${key}: ${shown} is not allowed; expected ${expected}.`, key);
}

/** Checks a kept key's value for the kind the anchor declares; returns a JSON copy to persist. */
export function checkKept(key: string, spec: KeptKey, value: unknown): unknown {
  switch (spec.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') reject(key, value, 'true or false');
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) reject(key, value, 'a number');
      break;
    case 'string':
      if (typeof value !== 'string') reject(key, value, 'a string');
      break;
    case 'object':
      if (!isPlainObject(value)) reject(key, value, 'an object');
      break;
    case 'strings':
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
        reject(key, value, 'a list of strings');
      }
      break;
    case 'activities': {
      // The anchor takes a list or one comma-separated string ("in_vehicle,on_bicycle").
      const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
      if (!Array.isArray(list) || list.some((item) => !TRIGGER_ACTIVITIES.includes(item as string))) {
        reject(key, value, `activities among ${TRIGGER_ACTIVITIES.join(', ')}`);
      }
      break;
    }
  }
  if (spec.values && !spec.values.includes(value as string | number)) {
    reject(key, value, `one of ${spec.values.join(', ')}`);
  }
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return reject(key, value, 'JSON data');
  }
}
