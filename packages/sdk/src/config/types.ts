import type { HttpMethod } from '../ports/transport.js';
import type { OrderDirection } from '../ports/store.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type LogLevelName = 'OFF' | 'ERROR' | 'WARNING' | 'INFO' | 'DEBUG' | 'VERBOSE';

/** The remote commands of spec 4.2. */
export type RemoteCommandName =
  | 'start'
  | 'stop'
  | 'startGeofences'
  | 'changePace'
  | 'setConfig'
  | 'addGeofence'
  | 'addGeofences'
  | 'removeGeofence'
  | 'removeGeofences'
  | 'uploadLog'
  | 'destroyLog'
  | 'resendReceipted';

export interface HttpConfig {
  url: string | null;
  method: HttpMethod;
  headers: Record<string, string>;
  params: JsonObject;
  rootProperty: string;
  autoSync: boolean;
  autoSyncThreshold: number;
  batchSync: boolean;
  maxBatchSize: number;
  disableAutoSyncOnCellular: boolean;
  timeout: number;
  /** Seconds between automatic retries while the queue is not empty (spec 7.3 background fetch). */
  retryInterval: number;
  /** Waypost: seconds without an upload before a presence report (no records, the health report); 0 = never. */
  presenceInterval: number;
  remoteCommands: RemoteCommandName[];
  /** Waypost: when upload bodies are gzipped (auto: after the server advertised gzip). */
  compress: 'auto' | 'gzip' | 'none';
}

/** The anchor's PersistMode constants. */
export type PersistModeValue = 2 | 1 | -1 | 0;

export interface PersistenceConfig {
  locationTemplate: string | null;
  geofenceTemplate: string | null;
  maxDaysToPersist: number;
  maxRecordsToPersist: number;
  /** Waypost (issue 46): days delivered records stay in the receipt archive. */
  maxDaysToArchive: number;
  /** Waypost (issue 46): the receipt archive's cap, bytes of record JSON. */
  maxArchiveBytes: number;
  locationsOrderDirection: OrderDirection;
  /** The anchor's PersistMode: 2 all, 1 locations, -1 geofences, 0 none. */
  persistMode: PersistModeValue;
  extras: JsonObject;
}

export interface AppConfig {
  stopOnTerminate: boolean;
  startOnBoot: boolean;
  heartbeatInterval: number;
}

export interface LoggerConfig {
  logLevel: LogLevelName;
  logMaxDays: number;
}

export interface GeolocationConfig {
  stationaryRadius: number;
  stopTimeout: number;
  geofenceInitialTriggerEntry: boolean;
}

export type AuthorizationStrategy = 'JWT' | 'SAS';

export interface AuthorizationConfig {
  strategy: AuthorizationStrategy;
  accessToken: string | null;
  refreshToken: string | null;
  refreshUrl: string | null;
  refreshPayload: Record<string, string>;
  refreshHeaders: Record<string, string>;
  expires: number;
}

/** The fully resolved configuration: every field present. */
export interface Config {
  http: HttpConfig;
  persistence: PersistenceConfig;
  app: AppConfig;
  logger: LoggerConfig;
  geolocation: GeolocationConfig;
  authorization: AuthorizationConfig;
}

export type GroupName = keyof Config;
