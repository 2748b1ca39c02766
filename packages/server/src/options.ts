import { randomBytes } from 'node:crypto';

export interface ServerOptions {
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
  /** Default: process.env.WAYPOST_ADMIN_TOKEN, else a random one (see RunningServer.adminToken). */
  adminToken?: string;
  /** When true, uploads need a valid device access token (401 otherwise). */
  requireTokens?: boolean;
  /** Lifetime of access tokens; default 3600. */
  accessTokenTtlSeconds?: number;
  /** Lifetime of refresh tokens; default 30 days. */
  refreshTokenTtlSeconds?: number;
  /** Map tiles for the dashboard ({z}/{x}/{y} template); null or unset: a plain background, offline. */
  tileUrl?: string | null;
  /** Largest accepted request body; default 5 MiB (413 beyond). */
  bodyLimitBytes?: number;
  /** Most records in one request; default 10000 (413 beyond). */
  maxRecordsPerRequest?: number;
  /** pino to stdout; default false. */
  logger?: boolean;
  /** PostgreSQL pool size per process; default 10. */
  poolSize?: number;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  database: string;
  databaseUrl: string | null;
  schema: string | undefined;
  adminToken: string;
  requireTokens: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  tileUrl: string | null;
  bodyLimitBytes: number;
  maxRecordsPerRequest: number;
  logger: boolean;
  poolSize: number;
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
} as const;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`Option ${name} must be a positive integer, got ${value}`);
  return value;
}

export function resolveOptions(options: ServerOptions = {}): ResolvedOptions {
  const port = options.port ?? DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Option port must be 0..65535, got ${port}`);
  return {
    port,
    host: options.host ?? DEFAULTS.host,
    database: options.database ?? DEFAULTS.database,
    databaseUrl: options.databaseUrl ?? null,
    schema: options.schema,
    adminToken: options.adminToken ?? process.env.WAYPOST_ADMIN_TOKEN ?? randomBytes(24).toString('base64url'),
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
    tileUrl: options.tileUrl ?? null,
    bodyLimitBytes: positive('bodyLimitBytes', options.bodyLimitBytes, DEFAULTS.bodyLimitBytes),
    maxRecordsPerRequest: positive('maxRecordsPerRequest', options.maxRecordsPerRequest, DEFAULTS.maxRecordsPerRequest),
    logger: options.logger ?? false,
    poolSize: positive('poolSize', options.poolSize, DEFAULTS.poolSize),
  };
}
