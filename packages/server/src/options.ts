import { parseEventFilter, type EventType } from './fleet/fleet-event.js';
import { DEFAULT_RETRY, type RetryPolicy } from './fleet/retry-policy.js';
import { allowPrivateSinksOf } from './fleet/sinks/address-policy.js';
import { brokerNamesOf } from './fleet/sinks/broker-options.js';
import type { FleetOptions } from './fleet/fleet-options.js';
import { refuseUnknownOptions, SERVER_OPTION_KEYS } from './option-keys.js';
import {
  corsOriginsOf,
  metricsTokenOf,
  mapStyleOf,
  natsUrls,
  positive,
  rate,
  ServerOptionError,
  sinkUrl,
  tileUrlOf,
} from './option-checks.js';
import { liveFeedLimitsOf, type LiveFeedLimits, type LiveFeedServerOptions } from './live/feed-bounds.js';
import { oidcOf, type OidcOptions, type OidcServerOptions } from './oidc/oidc-options.js';
import { retentionOf, type RetentionOptions, type RetentionServerOptions } from './retention/retention-options.js';

/** Who may register a device (see auth/registration-policy.ts). */
export const REGISTRATION_MODES = ['open', 'secret', 'admin'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export interface ServerOptions extends RetentionServerOptions, OidcServerOptions, LiveFeedServerOptions {
  /** Default 8080; 0 picks any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** SQLite file; default './waypost-server.db'. */
  database?: string;
  /** PostgreSQL URL (may carry `?schema=name`); wins over `database`. */
  databaseUrl?: string;
  /** PostgreSQL schema; wins over the URL's `?schema=`. Created when missing. */
  schema?: string;
  /**
   * Default: process.env.WAYPOST_ADMIN_TOKEN, else one generated on first start and kept (beside a
   * SQLite file, in PostgreSQL's settings table): see RunningServer.adminToken and adminTokenKeptIn.
   */
  adminToken?: string;
  /** When true, uploads need a valid device access token (401 otherwise). */
  requireTokens?: boolean;
  /** Lifetime of access tokens; default 3600. */
  accessTokenTtlSeconds?: number;
  /** Lifetime of refresh tokens; default 30 days. */
  refreshTokenTtlSeconds?: number;
  /**
   * The dashboard's basemap as a MapLibre style URL; default OpenFreeMap's Liberty (unless tileUrl
   * or tileFile is given); null or 'none': the offline outline only, no request to anyone.
   */
  mapStyle?: string | null;
  /** Raster map tiles for the dashboard ({z}/{x}/{y} template), instead of mapStyle. */
  tileUrl?: string | null;
  /**
   * A local MBTiles file, or PMTiles archive (named *.pmtiles), served at /tiles/{z}/{x}/{y} as the
   * dashboard's basemap, for a map with no third-party request: raster (png/jpg/webp) or vector (pbf, OpenMapTiles schema, drawn with a
   * built-in style).
   */
  tileFile?: string | null;
  /** Largest accepted request body; default 5 MiB (413 beyond). */
  bodyLimitBytes?: number;
  /** Most records in one request; default 10000 (413 beyond). */
  maxRecordsPerRequest?: number;
  /** pino to stdout; default false. */
  logger?: boolean;
  /** PostgreSQL pool size per process; default 10. */
  poolSize?: number;
  /**
   * Who may register a device: 'open' (default: anyone, for an id not registered yet), 'secret'
   * (callers with registrationSecret), 'admin' (the admin token only). An existing id always needs
   * the admin token or that device's own access token.
   */
  registration?: RegistrationMode;
  /** The enrollment secret of registration 'secret'; default process.env.WAYPOST_REGISTRATION_SECRET. */
  registrationSecret?: string;
  /**
   * The bearer token that reads GET /metrics (Prometheus' `authorization` in its scrape config),
   * 16 characters at least; default process.env.WAYPOST_METRICS_TOKEN. Without one, only the admin
   * token reads /metrics: the fleet's counts are nobody else's.
   */
  metricsToken?: string;
  /** Requests per second per device (token bucket, burst 20x); 0 turns it off. Default 20. */
  rateLimit?: number;
  /** Requests per second per client address (token bucket, burst 20x); 0 turns it off. Default 1000. */
  rateLimitPerAddress?: number;
  /** Origins allowed to call the API from a browser (CORS); default none: CORS off. */
  corsOrigins?: string[];
  /** Behind a reverse proxy: take the client address and https from X-Forwarded-*; default false. */
  trustProxy?: boolean;
  /** Lifetime of a dashboard session; default 12 hours. */
  sessionTtlSeconds?: number;
  /** Largest uploaded log once decompressed; default 50 MiB (413 beyond). */
  logLimitBytes?: number;
  /** Time for a client to send a request's headers; default 10 s. */
  headersTimeoutMs?: number;
  /** Time for a client to send a whole request; default 30 s. */
  requestTimeoutMs?: number;
  /** Open connections at most (more are closed at once); default 10,000 (about 8 KiB each when idle). */
  maxConnections?: number;
  /** Webhook URLs that receive fleet events (issue 21), beside those added by POST /api/webhooks. */
  webhooks?: string[];
  /** An MQTT broker (mqtt://host:port) that receives fleet events at QoS 1. */
  mqttUrl?: string;
  /** A NATS server (nats://host:port) whose JetStream stream WAYPOST receives fleet events. */
  natsUrl?: string;
  /** MQTT topics are `<mqttTopicPrefix>/<device>/<type>`; default "waypost" (one per instance on a shared broker). */
  mqttTopicPrefix?: string;
  /** The JetStream stream of fleet events; default "WAYPOST". */
  natsStream?: string;
  /** NATS subjects are `<natsSubjectPrefix>.<device>.<type>`; default "waypost". */
  natsSubjectPrefix?: string;
  /** The event types the sinks above receive; default all but `location`. */
  sinkEvents?: string[];
  /** Private hosts and ranges (`10.0.0.0/8`, `mqtt.internal`) an operator's sinks may reach; default none. */
  allowPrivateSinks?: string[];
  /** device.silent after this long without an upload; default 3600, 0 turns it off. */
  silentAfterSeconds?: number;
  /** Records arriving more than this long after they were recorded make `late` events; default 300. */
  lateAfterSeconds?: number;
  /** Delivery retries: first delay (default 1000 ms), doubling up to retryMaxDelayMs (default 10 min) ... */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** ... and dead-lettered once this old (default 3 days). */
  retryForSeconds?: number;
  /** How often delivery looks for events of other processes and due retries; default 1000 ms. */
  deliveryPollMs?: number;
  /** How long a process holds a sink before another may take it over; default 30,000 ms. */
  deliveryLeaseMs?: number;
}

// A ServerOptions key missing from SERVER_OPTION_KEYS (or one listed that is not an option) fails
// the type check here: startServer() would refuse the option it documents.
type Unlisted = Exclude<keyof ServerOptions, (typeof SERVER_OPTION_KEYS)[number]>;
type Unknown = Exclude<(typeof SERVER_OPTION_KEYS)[number], keyof ServerOptions>;
const everyOptionListed: [Unlisted | Unknown] extends [never] ? true : Unlisted | Unknown = true;
void everyOptionListed;

export interface ResolvedOptions {
  port: number;
  host: string;
  database: string;
  databaseUrl: string | null;
  schema: string | undefined;
  adminToken: string;
  /** Where a generated admin token is kept (a file, the database), or null when one was given or it lives in memory. */
  adminTokenKeptIn: string | null;
  requireTokens: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  mapStyle: string | null;
  tileUrl: string | null;
  tileFile: string | null;
  bodyLimitBytes: number;
  maxRecordsPerRequest: number;
  logger: boolean;
  poolSize: number;
  registration: RegistrationMode;
  registrationSecret: string | null;
  metricsToken: string | null;
  rateLimit: number;
  rateLimitPerAddress: number;
  corsOrigins: string[];
  trustProxy: boolean;
  sessionTtlSeconds: number;
  logLimitBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  /** Bounds on live feeds (GET /api/events) per user, per address and in all (issue 45). */
  liveFeeds: LiveFeedLimits;
  fleet: FleetOptions;
  retention: RetentionOptions;
  /** Single sign-on (OpenID Connect), or null when off. */
  oidc: OidcOptions | null;
}

export const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  database: './waypost-server.db',
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  bodyLimitBytes: 5 * 1024 * 1024,
  maxRecordsPerRequest: 10_000,
  poolSize: 10,
  registration: 'open',
  rateLimit: 20,
  rateLimitPerAddress: 1000,
  sessionTtlSeconds: 12 * 3600,
  logLimitBytes: 50 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 10_000,
  silentAfterSeconds: 3600,
  lateAfterSeconds: 300,
  deliveryPollMs: 1000,
  deliveryLeaseMs: 30_000,
} as const;

function registrationOf(options: ServerOptions): { registration: RegistrationMode; registrationSecret: string | null } {
  const registration = options.registration ?? DEFAULTS.registration;
  if (!REGISTRATION_MODES.includes(registration)) {
    throw new ServerOptionError('registration', `must be one of ${REGISTRATION_MODES.join(', ')}, got ${registration}`);
  }
  const secret = options.registrationSecret ?? process.env.WAYPOST_REGISTRATION_SECRET ?? null;
  if (registration === 'secret' && !secret) {
    throw new ServerOptionError(
      'registrationSecret',
      'is needed by registration "secret" (or env WAYPOST_REGISTRATION_SECRET)',
    );
  }
  return { registration, registrationSecret: secret || null };
}

function fleetOf(options: ServerOptions): FleetOptions {
  let sinkEvents: EventType[] | null;
  try {
    sinkEvents = parseEventFilter(options.sinkEvents);
  } catch (error) {
    throw new ServerOptionError('sinkEvents', `is not a list of event types: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const seconds = (name: string, value: number | undefined, fallback: number) => rate(name, value, fallback) * 1000;
  const retry: RetryPolicy = {
    baseDelayMs: positive('retryBaseDelayMs', options.retryBaseDelayMs, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: positive('retryMaxDelayMs', options.retryMaxDelayMs, DEFAULT_RETRY.maxDelayMs),
    retryForMs: seconds('retryForSeconds', options.retryForSeconds, DEFAULT_RETRY.retryForMs / 1000),
  };
  return {
    webhooks: (options.webhooks ?? []).map((url) => sinkUrl('webhooks', url, ['http:', 'https:'])),
    mqttUrl: options.mqttUrl ? sinkUrl('mqttUrl', options.mqttUrl, ['mqtt:', 'mqtts:', 'ws:', 'wss:']) : null,
    natsUrl: options.natsUrl ? natsUrls('natsUrl', options.natsUrl) : null,
    sinkEvents,
    allowPrivateSinks: allowPrivateSinksOf(options.allowPrivateSinks),
    silentAfterMs: seconds('silentAfterSeconds', options.silentAfterSeconds, DEFAULTS.silentAfterSeconds),
    lateAfterMs: seconds('lateAfterSeconds', options.lateAfterSeconds, DEFAULTS.lateAfterSeconds),
    retry,
    brokers: brokerNamesOf(options, retry),
    pollMs: positive('deliveryPollMs', options.deliveryPollMs, DEFAULTS.deliveryPollMs),
    leaseMs: positive('deliveryLeaseMs', options.deliveryLeaseMs, DEFAULTS.deliveryLeaseMs),
  };
}

export function resolveOptions(options: ServerOptions = {}): ResolvedOptions {
  refuseUnknownOptions(options);
  const port = options.port ?? DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ServerOptionError('port', `must be 0..65535, got ${port}`);
  }
  const maxConnections = positive('maxConnections', options.maxConnections, DEFAULTS.maxConnections);
  return {
    port,
    host: options.host ?? DEFAULTS.host,
    database: options.database ?? DEFAULTS.database,
    databaseUrl: options.databaseUrl ?? null,
    schema: options.schema,
    // '' = none given: buildApp takes the kept one (auth/kept-admin-token.ts).
    adminToken: options.adminToken ?? process.env.WAYPOST_ADMIN_TOKEN ?? '',
    adminTokenKeptIn: null,
    requireTokens: options.requireTokens ?? false,
    accessTokenTtlSeconds: positive(
      'accessTokenTtlSeconds',
      options.accessTokenTtlSeconds,
      DEFAULTS.accessTokenTtlSeconds,
    ),
    refreshTokenTtlSeconds: positive(
      'refreshTokenTtlSeconds',
      options.refreshTokenTtlSeconds,
      DEFAULTS.refreshTokenTtlSeconds,
    ),
    mapStyle: mapStyleOf(options.mapStyle, options.tileUrl, options.tileFile),
    tileUrl: tileUrlOf(options.tileUrl, options.tileFile),
    tileFile: options.tileFile ?? null,
    bodyLimitBytes: positive('bodyLimitBytes', options.bodyLimitBytes, DEFAULTS.bodyLimitBytes),
    maxRecordsPerRequest: positive('maxRecordsPerRequest', options.maxRecordsPerRequest, DEFAULTS.maxRecordsPerRequest),
    logger: options.logger ?? false,
    poolSize: positive('poolSize', options.poolSize, DEFAULTS.poolSize),
    ...registrationOf(options),
    metricsToken: metricsTokenOf(options.metricsToken ?? process.env.WAYPOST_METRICS_TOKEN),
    rateLimit: rate('rateLimit', options.rateLimit, DEFAULTS.rateLimit),
    rateLimitPerAddress: rate('rateLimitPerAddress', options.rateLimitPerAddress, DEFAULTS.rateLimitPerAddress),
    corsOrigins: corsOriginsOf(options.corsOrigins),
    trustProxy: options.trustProxy ?? false,
    sessionTtlSeconds: positive('sessionTtlSeconds', options.sessionTtlSeconds, DEFAULTS.sessionTtlSeconds),
    logLimitBytes: positive('logLimitBytes', options.logLimitBytes, DEFAULTS.logLimitBytes),
    headersTimeoutMs: positive('headersTimeoutMs', options.headersTimeoutMs, DEFAULTS.headersTimeoutMs),
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs, DEFAULTS.requestTimeoutMs),
    maxConnections,
    liveFeeds: liveFeedLimitsOf(options, maxConnections),
    fleet: fleetOf(options),
    retention: retentionOf(options),
    oidc: oidcOf(options),
  };
}
