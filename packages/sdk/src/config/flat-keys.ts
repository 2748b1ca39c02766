import { GROUP_NAMES, fieldsOf } from './fields.js';
import type { GroupName } from './types.js';

/**
 * The anchor SDK's older flat configuration (`{ url, autoSync, httpRootProperty, ... }`) mapped
 * onto Waypost's groups, so existing configurations keep working unchanged.
 */
export const FLAT_KEYS: ReadonlyMap<string, { group: GroupName; field: string }> = (() => {
  const map = new Map<string, { group: GroupName; field: string }>();
  for (const group of GROUP_NAMES) {
    // The anchor always nested authorization in its own object; it has no flat form.
    if (group === 'authorization') continue;
    for (const [field, spec] of Object.entries(fieldsOf(group))) {
      map.set(spec.flatKey ?? field, { group, field });
    }
  }
  return map;
})();

/**
 * Keys of the anchor's configuration that steer things Waypost does not do (GPS hardware, OS
 * notifications, scheduling). They are accepted and kept so a shared configuration validates,
 * and noted once in the log.
 */
export const IGNORED_ANCHOR_KEYS: ReadonlySet<string> = new Set([
  'desiredAccuracy',
  'distanceFilter',
  'debug',
  'foregroundService',
  'notification',
  'enableHeadless',
  'preventSuspend',
  'locationUpdateInterval',
  'fastestLocationUpdateInterval',
  'activityRecognitionInterval',
  'stopOnStationary',
  'disableElasticity',
  'elasticityMultiplier',
  'useSignificantChangesOnly',
  'disableMotionActivityUpdates',
  'disableStopDetection',
  'motionTriggerDelay',
  'pausesLocationUpdatesAutomatically',
  'locationAuthorizationRequest',
  'locationAuthorizationAlert',
  'showsBackgroundLocationIndicator',
  'schedule',
  'scheduleUseAlarmManager',
  'geofenceProximityRadius',
  'geofenceInitialTriggerEntry',
  'geofenceModeHighAccuracy',
  'persistMode',
  'allowIdenticalLocations',
  'forceReloadOnMotionChange',
  'forceReloadOnLocationChange',
  'forceReloadOnGeofence',
  'forceReloadOnHeartbeat',
  'forceReloadOnSchedule',
  'forceReloadOnBoot',
  'activityType',
  'stationaryRadiusMin',
  'minimumActivityRecognitionConfidence',
  'triggerActivities',
  'isMoving',
  'preventSuspendInterval',
  'enableTimestampMeta',
  'locationTimeout',
  'deferTime',
  'disableLocationAuthorizationAlert',
]);
