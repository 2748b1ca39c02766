/**
 * Type-level test, compiled under --strict by `npm run typecheck` (never run): code typed with the
 * anchor SDK's own types (@transistorsoft/background-geolocation-types 5.3.8) compiles against
 * Waypost's API unchanged. Fully populated configuration groups, the whole v5 Config and the v4
 * flat form, anchor-typed event handlers, and the anchor's result types.
 */
import {
  ActivityType,
  AuthorizationStrategy,
  DesiredAccuracy,
  HttpMethod,
  KalmanProfile,
  LocationFilterPolicy,
  LogLevel,
  NotificationPriority,
  PersistMode,
  SQLQueryOrder,
  TriggerActivity,
  type ActivityConfig,
  type AppConfig,
  type AuthorizationConfig,
  type AuthorizationEvent,
  type BackgroundGeolocationAPI,
  type Config,
  type ConnectivityChangeEvent,
  type CurrentPositionRequest,
  type DeviceInfo,
  type GeoConfig,
  type Geofence,
  type GeofenceEvent,
  type GeofencesChangeEvent,
  type HeartbeatEvent,
  type HttpConfig,
  type HttpEvent,
  type Location,
  type LocationError,
  type LocationInput,
  type LocationQuery,
  type LoggerConfig,
  type MotionActivityEvent,
  type MotionChangeEvent,
  type PersistenceConfig,
  type ProviderChangeEvent,
  type SQLQuery,
  type State,
  type Subscription,
  type TransistorAuthorizationToken,
  type WatchPositionRequest,
} from '@transistorsoft/background-geolocation-types';
import type { BackgroundGeolocation } from '@waypost/node';

declare const bg: BackgroundGeolocation;

const logger: Required<LoggerConfig> = { debug: true, logLevel: LogLevel.Verbose, logMaxDays: 3 };
const geolocation: Required<GeoConfig> = {
  desiredAccuracy: DesiredAccuracy.High,
  activityType: ActivityType.AutomotiveNavigation,
  distanceFilter: 10,
  stationaryRadius: 25,
  stopTimeout: 5,
  pausesLocationUpdatesAutomatically: false,
  disableElasticity: false,
  elasticityMultiplier: 1,
  stopAfterElapsedMinutes: 0,
  useSignificantChangesOnly: false,
  disableLocationAuthorizationAlert: false,
  locationAuthorizationRequest: 'Always',
  locationAuthorizationAlert: { titleWhenOff: 'Off' },
  showsBackgroundLocationIndicator: false,
  locationUpdateInterval: 1000,
  fastestLocationUpdateInterval: 10_000,
  locationTimeout: 60,
  deferTime: 0,
  allowIdenticalLocations: false,
  geofenceProximityRadius: 1000,
  geofenceModeHighAccuracy: false,
  geofenceInitialTriggerEntry: true,
  filter: {
    policy: LocationFilterPolicy.Adjust,
    useKalman: true,
    kalmanDebug: false,
    kalmanProfile: KalmanProfile.Default,
    rollingWindow: 5,
    burstWindow: 10,
    maxBurstDistance: 300,
    trackingAccuracyThreshold: 100,
    maxImpliedSpeed: 60,
    filterDebug: false,
    odometerUseKalmanFilter: true,
    odometerAccuracyThreshold: 20,
    odometerPolicy: LocationFilterPolicy.Conservative,
  },
  enableTimestampMeta: false,
};
const http: Required<HttpConfig> = {
  url: 'https://example.com/locations',
  headers: { 'X-Key': 'k' },
  params: { device_id: 'd1', nested: { a: 1 } },
  method: HttpMethod.Post,
  autoSync: true,
  autoSyncThreshold: 0,
  disableAutoSyncOnCellular: false,
  batchSync: false,
  maxBatchSize: -1,
  rootProperty: 'location',
  timeout: 60_000,
};
const app: Required<AppConfig> = {
  stopOnTerminate: false,
  startOnBoot: true,
  enableHeadless: true,
  heartbeatInterval: 60,
  schedule: ['1-7 09:00-17:00'],
  scheduleUseAlarmManager: false,
  notification: {
    priority: NotificationPriority.High,
    sticky: true,
    title: 'Tracking',
    text: 'on',
    color: '#000000',
    smallIcon: 'drawable/s',
    largeIcon: 'drawable/l',
    layout: 'notification_layout',
    strings: { title: 'T' },
    actions: ['pause'],
    channelName: 'Tracking',
    channelId: 'tracking',
  },
  backgroundPermissionRationale: { title: 'Allow', message: 'Please', positiveAction: 'OK', negativeAction: 'No' },
  preventSuspend: false,
};
const persistence: Required<PersistenceConfig> = {
  locationTemplate: '{"lat":<%= latitude %>}',
  geofenceTemplate: '{"fence":"<%= geofence.identifier %>"}',
  maxDaysToPersist: 1,
  maxRecordsToPersist: -1,
  locationsOrderDirection: 'ASC',
  persistMode: PersistMode.All,
  extras: { route: 1 },
  disableProviderChangeRecord: false,
  timestampFormat: 'iso',
};
const activity: Required<ActivityConfig> = {
  activityRecognitionInterval: 10_000,
  minimumActivityRecognitionConfidence: 75,
  disableStopDetection: false,
  stopOnStationary: false,
  motionTriggerDelay: 0,
  triggerActivities: [TriggerActivity.InVehicle, TriggerActivity.OnBicycle],
  disableMotionActivityUpdates: false,
  stopDetectionDelay: 0,
};
const authorization: Required<AuthorizationConfig> = {
  strategy: AuthorizationStrategy.Jwt,
  accessToken: 'a',
  refreshToken: 'r',
  refreshUrl: 'https://example.com/refresh',
  refreshPayload: { refresh_token: '{refreshToken}' },
  refreshHeaders: { Authorization: 'Bearer {accessToken}' },
  expires: -1,
};
const token: TransistorAuthorizationToken = { accessToken: 'a', refreshToken: 'r', expires: -1, url: 'https://x' };
const v5: Required<Config> = {
  reset: true,
  logger,
  geolocation,
  http,
  app,
  persistence,
  activity,
  authorization,
  transistorAuthorizationToken: token,
};
/** The anchor's v4 flat form (its v4 Config interface is not in the v5 types package): a literal, so every key is checked. */
const legacy = { desiredAccuracy: DesiredAccuracy.High, distanceFilter: 10, stopOnTerminate: false } as const;

/**
 * The fields of the anchor's v4 `Config` (react-native-background-geolocation 4.18.4,
 * src/declarations/interfaces/Config.d.ts) that Waypost typed narrower, as v4 declares them: the
 * whole v4 Config was checked against ready()/setConfig() with tsc --strict, and these were its
 * only errors (issue 17 item 10).
 */
/* eslint-disable @typescript-eslint/no-wrapper-object-types -- v4 declares Object */
interface AnchorV4Fields {
  method?: 'POST' | 'PUT' | 'OPTIONS';
  headers?: Object;
  params?: Object;
  extras?: Object;
  locationsOrderDirection?: string;
}
/* eslint-enable @typescript-eslint/no-wrapper-object-types */
declare const v4: AnchorV4Fields;

/** Waypost provides these members of the anchor's API with the anchor's signatures. */
type Implemented = Omit<
  BackgroundGeolocationAPI,
  | 'deviceSettings'
  | 'stopWatchPosition'
  | 'getProviderState'
  | 'requestPermission'
  | 'requestTemporaryFullAccuracy'
  | 'startSchedule'
  | 'stopSchedule'
  | 'setLogPersist'
  | 'getSensors'
  | 'isPowerSaveMode'
  | 'startBackgroundTask'
  | 'stopBackgroundTask'
  | 'finishHeadlessTask'
  | 'playSound'
  | 'onSchedule'
  | 'onPowerSaveChange'
  | 'onNotificationAction'
  | 'onLocationFilter'
  | 'registerHeadlessTask'
>;
export const api: Implemented = bg;

export async function anchorTypedCode(input: LocationInput, geofence: Geofence): Promise<void> {
  const ready: State = await bg.ready(v5);
  const flat: State = await bg.ready({
    ...legacy,
    url: 'https://example.com/locations',
    httpRootProperty: 'data',
    httpTimeout: 30_000,
    logLevel: LogLevel.Debug,
    notificationTitle: 'Tracking',
    speedJumpFilter: 300,
    stopDetectionDelay: 1,
    foregroundService: true,
  });
  const partial: State = await bg.setConfig({ http, logger });
  const v4Typed: State[] = [await bg.ready(v4), await bg.setConfig(v4)];
  const state: State = await bg.getState();
  const reset: State = await bg.reset(v5);
  const lifecycle: State[] = [await bg.start(), await bg.stop(), await bg.changePace(true), await bg.startGeofences()];
  void [ready, flat, partial, v4Typed, state, reset, lifecycle];

  const uuid: string = await bg.insertLocation(input);
  const destroyed: boolean = await bg.destroyLocations();
  const destroyedOne: boolean = await bg.destroyLocation(uuid);
  const query: LocationQuery = { limit: 10, offset: 0, page: 1, order: SQLQueryOrder.Desc };
  /* eslint-disable @typescript-eslint/no-wrapper-object-types -- the anchor declares Array<Object> */
  const records: Object[] = await bg.getLocations(query);
  const synced: Object[] = await bg.sync();
  /* eslint-enable @typescript-eslint/no-wrapper-object-types */
  const count: number = await bg.getCount();
  void [destroyed, destroyedOne, records, synced, count];

  const added: boolean[] = [await bg.addGeofence(geofence), await bg.addGeofences([geofence])];
  const removed: boolean[] = [
    await bg.removeGeofence('a'),
    await bg.removeGeofences(),
    await bg.removeGeofences(['a']),
  ];
  const fences: Geofence[] = await bg.getGeofences();
  const fence: Geofence = await bg.getGeofence('a');
  const exists: boolean = await bg.geofenceExists('a');
  const polygon: Geofence = {
    ...geofence,
    vertices: [
      [45.5, -73.6],
      [45.5, -73.59],
      [45.51, -73.59],
    ],
  };
  void [added, removed, fences, fence, exists, await bg.addGeofence(polygon)];

  const request: CurrentPositionRequest = {
    samples: 3,
    desiredAccuracy: 10,
    timeout: 30,
    persist: true,
    maximumAge: 0,
    extras: { a: 1 },
  };
  const position: Location = await bg.getCurrentPosition(request);
  const watch: WatchPositionRequest = {
    interval: 1000,
    desiredAccuracy: DesiredAccuracy.High,
    persist: false,
    extras: {},
    timeout: 60,
  };
  const watching: Subscription = bg.watchPosition(
    watch,
    (location: Location) => void location,
    (code: number) => void code,
  );
  const odometer: number = await bg.getOdometer();
  const odometerLocations: Location[] = [await bg.setOdometer(100), await bg.resetOdometer()];
  await bg.setLogLevel(LogLevel.Warning);
  const device: DeviceInfo = await bg.getDeviceInfo();
  const registered: TransistorAuthorizationToken = await bg.findOrCreateTransistorAuthorizationToken(
    'org',
    'me',
    'https://x',
  );
  await bg.destroyTransistorAuthorizationToken('https://x');
  void [position, watching, odometer, odometerLocations, device, registered];

  const sql: SQLQuery = { start: 0, end: Date.now(), limit: 100, offset: 0, order: bg.logger.ORDER_DESC };
  const text: string = await bg.logger.getLog(sql);
  const mailed: void | boolean = await bg.logger.emailLog('me@example.com', sql);
  const uploaded: void | boolean = await bg.logger.uploadLog('https://example.com/log', sql);
  await bg.logger.destroyLog();
  bg.logger.debug('d');
  bg.logger.info('i');
  bg.logger.notice('n');
  bg.logger.warn('w');
  bg.logger.error('e');
  const orders: [1, -1] = [bg.logger.ORDER_ASC, bg.logger.ORDER_DESC];
  void [text, mailed, uploaded, orders];

  const subscriptions: Subscription[] = [
    bg.onLocation(
      (location: Location) => void location.coords.latitude,
      (error: LocationError) => void error,
    ),
    bg.onMotionChange((event: MotionChangeEvent) => void event.location.uuid),
    bg.onGeofence((event: GeofenceEvent) => void event.location.geofence?.timestamp),
    bg.onGeofencesChange((event: GeofencesChangeEvent) => void [event.on, event.off]),
    bg.onActivityChange((event: MotionActivityEvent) => void event.activity),
    bg.onProviderChange((event: ProviderChangeEvent) => void event.gps),
    bg.onHeartbeat((event: HeartbeatEvent) => void event.location.odometer),
    bg.onHttp((event: HttpEvent) => void event.responseText),
    bg.onConnectivityChange((event: ConnectivityChangeEvent) => void event.connected),
    bg.onEnabledChange((enabled: boolean) => void enabled),
    bg.onAuthorization((event: AuthorizationEvent) => void event.response),
  ];
  const onLocation = (location: Location) => void location;
  bg.addListener('location', onLocation);
  bg.removeListener('location', onLocation);
  await bg.removeListeners();
  for (const subscription of subscriptions) subscription.remove();

  // Detached methods, as the anchor's.
  const { getCount, getState, insertLocation } = bg;
  const detached: [number, State, string] = [await getCount(), await getState(), await insertLocation(input)];
  void detached;

  // The anchor's enums read off the SDK object, v5 and v4 style; a misspelt constant does not compile.
  const constants: State = await bg.ready({
    desiredAccuracy: bg.DESIRED_ACCURACY_HIGH,
    logLevel: bg.LOG_LEVEL_VERBOSE,
    logger: { logLevel: bg.LogLevel.Verbose },
    geolocation: { desiredAccuracy: bg.DesiredAccuracy.High },
    persistence: { persistMode: bg.PersistMode.All },
  });
  // @ts-expect-error -- not one of the anchor's constants
  void bg.LOG_LEVEL_VERBOS;
  void constants;
}
