import type { Config, GroupName, JsonValue } from './types.js';

/**
 * The single table of configuration fields: type, default, allowed range and a one-line doc.
 * Validation, defaults, the flat-key mapping and the README's table are all generated from it.
 */
export type FieldKind =
  | { type: 'boolean' }
  | { type: 'integer'; min: number; max?: number; allowMinusOne?: boolean }
  | { type: 'number'; min: number; max?: number }
  | { type: 'string'; nullable: boolean; url?: boolean; template?: 'location' | 'geofence' }
  | {
      type: 'enum';
      values: readonly string[];
      /** The anchor's spellings: 'jwt' for JWT, 'post' for POST. */
      caseInsensitive?: boolean;
      /** The anchor's numeric constants for the same values (LogLevel, SQLQueryOrder). */
      numeric?: Readonly<Record<number, string>>;
    }
  | { type: 'stringMap' }
  | { type: 'jsonObject' }
  | { type: 'list'; values: readonly string[] };

export type FieldSpec<T = unknown> = FieldKind & {
  default: T;
  doc: string;
  /** The anchor's older flat key for this field, when it differs from the field name. */
  flatKey?: string;
};

type FieldTable = { [G in GroupName]: { [K in keyof Config[G]]: FieldSpec<Config[G][K]> } };

export const REMOTE_COMMANDS = [
  'start',
  'stop',
  'startGeofences',
  'changePace',
  'setConfig',
  'addGeofence',
  'addGeofences',
  'removeGeofence',
  'removeGeofences',
  'uploadLog',
  'destroyLog',
  // Waypost (issue 46): a server that lost receipted records asks for them again.
  'resendReceipted',
] as const;

/** The longest delay a timer accepts (setTimeout's 32-bit signed limit). */
const MAX_TIMER_MS = 2_147_483_647;

export const LOG_LEVELS = ['OFF', 'ERROR', 'WARNING', 'INFO', 'DEBUG', 'VERBOSE'] as const;

export const CONFIG_FIELDS: FieldTable = {
  http: {
    url: {
      type: 'string',
      nullable: true,
      url: true,
      default: null,
      doc: 'The service URL that receives recorded locations (http or https).',
    },
    method: {
      type: 'enum',
      values: ['POST', 'PUT', 'PATCH'],
      caseInsensitive: true,
      default: 'POST',
      doc: 'HTTP verb of the upload request.',
    },
    headers: {
      type: 'stringMap',
      default: {},
      doc: 'Headers added to every upload, merged with content-type: application/json.',
    },
    params: {
      type: 'jsonObject',
      default: {},
      doc: 'Keys added to every upload body, beside the root key (merged into the record with rootProperty ".").',
    },
    rootProperty: {
      type: 'string',
      nullable: false,
      default: 'location',
      flatKey: 'httpRootProperty',
      doc: 'Root key of the body; "." puts the record at the root.',
    },
    autoSync: { type: 'boolean', default: true, doc: 'Upload each location as soon as it is stored.' },
    autoSyncThreshold: {
      type: 'integer',
      min: 0,
      default: 0,
      doc: 'Minimum queued records before an automatic upload; 0 = every location.',
    },
    batchSync: {
      type: 'boolean',
      default: false,
      doc: 'Send queued records in one request (an array) instead of one request each.',
    },
    maxBatchSize: {
      type: 'integer',
      min: 1,
      allowMinusOne: true,
      default: -1,
      doc: 'Records per batched request; -1 = no limit.',
    },
    disableAutoSyncOnCellular: {
      type: 'boolean',
      default: false,
      doc: 'Automatic uploads only on Wi-Fi or Ethernet; sync() still uploads.',
    },
    timeout: {
      type: 'integer',
      min: 1,
      // Timers take at most 2^31-1 ms; a longer delay fires at once, failing every upload.
      max: MAX_TIMER_MS,
      default: 60_000,
      flatKey: 'httpTimeout',
      doc: 'Request timeout in milliseconds; the request is aborted after it.',
    },
    retryInterval: {
      type: 'integer',
      min: 1,
      max: Math.floor(MAX_TIMER_MS / 1000),
      default: 900,
      doc: 'Seconds between automatic retries while the queue is not empty, started or stopped ([spec 7.3](http-upload-spec.md#7-errors) background fetch).',
    },
    presenceInterval: {
      type: 'integer',
      min: 0,
      max: Math.floor(MAX_TIMER_MS / 1000),
      default: 900,
      doc: 'Waypost: seconds without any upload after which the SDK sends a presence report (an upload with no records, carrying its health report: docs/device-health.md), so the server can tell parked from lost; 0 = never. Honours autoSync, Retry-After and the Wi-Fi policy; only to a server that reads health reports.',
    },
    remoteCommands: {
      type: 'list',
      values: REMOTE_COMMANDS,
      default: [...REMOTE_COMMANDS],
      doc: 'Remote commands the SDK accepts from the server ([spec 4.2](http-upload-spec.md#42-remote-control-the-service-response-to-the-sdk)).',
    },
    compress: {
      type: 'enum',
      values: ['auto', 'gzip', 'none'],
      default: 'auto',
      doc: 'Waypost: compress upload bodies. auto: in the columnar coding once the server said it takes x-waypost-columnar-3, -2 or x-waypost-columnar (the highest version said), else gzip once it said gzip (Accept-Encoding on a response); gzip: always gzip; none: never. A 415 or 400 to a coded request turns that coding off for that URL (a columnar version falls back to the one before, then gzip, gzip to plain).',
    },
  },
  persistence: {
    locationTemplate: {
      type: 'string',
      nullable: true,
      template: 'location',
      default: null,
      doc: 'Template of a location record (<%= tag %>); null = the default schema.',
    },
    geofenceTemplate: {
      type: 'string',
      nullable: true,
      template: 'geofence',
      default: null,
      doc: 'Template of a geofence record; null = the default schema.',
    },
    maxDaysToPersist: { type: 'integer', min: 1, default: 1, doc: 'Days a record stays queued before it is dropped.' },
    maxRecordsToPersist: {
      type: 'integer',
      min: 0,
      allowMinusOne: true,
      default: -1,
      doc: 'Cap on queued records, oldest dropped first; -1 = no cap, 0 = persist nothing.',
    },
    maxDaysToArchive: {
      type: 'integer',
      min: 0,
      default: 7,
      doc: 'Days a delivered record stays in the receipt archive (a server offering receipts can ask for it again); 0 = keep none.',
    },
    maxArchiveBytes: {
      type: 'integer',
      min: 0,
      default: 40_000_000,
      doc: 'Cap on the receipt archive, bytes of record JSON, oldest out first (about 7 days of one record every 10 s).',
    },
    locationsOrderDirection: {
      type: 'enum',
      values: ['ASC', 'DESC'],
      caseInsensitive: true,
      numeric: { 1: 'ASC', [-1]: 'DESC' },
      default: 'ASC',
      doc: 'Order in which records are read and uploaded.',
    },
    persistMode: {
      type: 'integer',
      min: -1,
      max: 2,
      default: 2,
      doc: "The anchor's PersistMode: which records tracking stores. 2 all, 1 locations only, -1 geofences only, 0 none (events still fire; insertLocation always stores).",
    },
    extras: {
      type: 'jsonObject',
      default: {},
      doc: "Keys merged into every record's extras (or into a template's output).",
    },
  },
  app: {
    stopOnTerminate: {
      type: 'boolean',
      default: true,
      doc: 'Stop tracking when the process ends; false resumes tracking on the next open.',
    },
    startOnBoot: {
      type: 'boolean',
      default: false,
      doc: 'Start tracking when the SDK is opened after a reboot, if it was enabled.',
    },
    heartbeatInterval: {
      type: 'integer',
      min: 1,
      max: Math.floor(MAX_TIMER_MS / 1000),
      default: 60,
      doc: 'Seconds between heartbeats (onHeartbeat, a retry trigger) while started.',
    },
  },
  logger: {
    logLevel: {
      type: 'enum',
      values: LOG_LEVELS,
      caseInsensitive: true,
      numeric: { ...LOG_LEVELS },
      default: 'INFO',
      doc: 'OFF, ERROR, WARNING, INFO, DEBUG or VERBOSE (or 0..5).',
    },
    logMaxDays: { type: 'integer', min: 1, default: 3, doc: 'Days log entries are kept.' },
  },
  geolocation: {
    stationaryRadius: {
      type: 'number',
      min: 1,
      default: 25,
      doc: 'Metres the device must leave around where it stopped to be moving again.',
    },
    stopTimeout: {
      type: 'number',
      min: 0,
      default: 5,
      doc: 'Minutes without leaving stationaryRadius before the device is stationary.',
    },
    geofenceInitialTriggerEntry: {
      type: 'boolean',
      default: true,
      doc: 'ENTER for a geofence the device is already inside when the first location arrives.',
    },
  },
  authorization: {
    strategy: {
      type: 'enum',
      values: ['JWT', 'SAS'],
      caseInsensitive: true,
      default: 'JWT',
      doc: 'JWT sends "Bearer <token>"; SAS sends the raw token (either case).',
    },
    accessToken: {
      type: 'string',
      nullable: true,
      default: null,
      doc: 'Token sent in the Authorization header of uploads.',
    },
    refreshToken: {
      type: 'string',
      nullable: true,
      default: null,
      doc: 'Token exchanged at refreshUrl for a new access token.',
    },
    refreshUrl: {
      type: 'string',
      nullable: true,
      url: true,
      default: null,
      doc: 'Where tokens are refreshed (form-urlencoded POST).',
    },
    refreshPayload: {
      type: 'stringMap',
      default: {},
      doc: 'Form fields of the refresh request; "{refreshToken}" is replaced inside values.',
    },
    refreshHeaders: {
      type: 'stringMap',
      default: { Authorization: 'Bearer {accessToken}' },
      doc: 'Headers of the refresh request; {} sends none.',
    },
    expires: {
      type: 'integer',
      min: -1,
      default: -1,
      doc: 'Access token expiry, epoch seconds (or ms when > 1e12); -1 = unknown.',
    },
  },
};

export const GROUP_NAMES = Object.keys(CONFIG_FIELDS) as GroupName[];

export function fieldsOf(group: GroupName): Record<string, FieldSpec> {
  return CONFIG_FIELDS[group] as unknown as Record<string, FieldSpec>;
}

function cloneJson<T>(value: T): T {
  return value === null || typeof value !== 'object' ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function defaultConfig(): Config {
  const config: Record<string, Record<string, unknown>> = {};
  for (const group of GROUP_NAMES) {
    const values: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(fieldsOf(group))) values[key] = cloneJson(spec.default);
    config[group] = values;
  }
  return config as unknown as Config;
}

export function cloneConfig(config: Config): Config {
  return cloneJson(config);
}

/** Renders a default for documentation: the README's table is generated from this. */
export function describeDefault(value: unknown): string {
  if (value === null) return 'none';
  return JSON.stringify(value as JsonValue);
}
