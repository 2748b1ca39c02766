import { MAX_TIMER_MS, type GroupFields } from './field-spec.js';

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

/** The http group: where and how records are uploaded, and what the server may ask of the SDK. */
export const UPLOAD_FIELDS: GroupFields<'http'> = {
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
};
