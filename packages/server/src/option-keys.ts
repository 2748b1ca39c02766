import { nearestKey } from '@waypost/sdk/internal';
import { ServerOptionError } from './option-checks.js';

/**
 * Every key startServer() takes: ServerOptions' (options.ts checks the list is whole) and
 * buildApp's own (now, logStream, sqliteCheckpoints). A misspelt
 * key ({ prot: 1 }) would otherwise be ignored and its default used without a word.
 */
export const SERVER_OPTION_KEYS = [
  'port',
  'host',
  'database',
  'databaseUrl',
  'schema',
  'adminToken',
  'requireTokens',
  'accessTokenTtlSeconds',
  'refreshTokenTtlSeconds',
  'mapStyle',
  'tileUrl',
  'tileFile',
  'mapStyle',
  'bodyLimitBytes',
  'maxRecordsPerRequest',
  'logger',
  'poolSize',
  'registration',
  'registrationSecret',
  'metricsToken',
  'rateLimit',
  'rateLimitPerAddress',
  'corsOrigins',
  'trustProxy',
  'sessionTtlSeconds',
  'logLimitBytes',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'maxConnections',
  'liveFeedsPerUser',
  'liveFeedsPerAddress',
  'liveFeedsShare',
  'webhooks',
  'mqttUrl',
  'natsUrl',
  'mqttTopicPrefix',
  'natsStream',
  'natsSubjectPrefix',
  'sinkEvents',
  'allowPrivateSinks',
  'silentAfterSeconds',
  'lateAfterSeconds',
  'retryBaseDelayMs',
  'retryMaxDelayMs',
  'retryForSeconds',
  'deliveryPollMs',
  'deliveryLeaseMs',
  'retentionDays',
  'quarantineRetentionDays',
  'logRetentionDays',
  'eventRetentionDays',
  'retentionBatchSize',
  'retentionIntervalMs',
  'oidcIssuer',
  'oidcClientId',
  'oidcClientSecret',
  'oidcRedirectUri',
  'oidcScopes',
  'oidcRoleClaim',
  'oidcRoleMap',
  'oidcOrgsClaim',
  'oidcGroupsClaim',
  'oidcUserClaim',
] as const;

/** buildApp's options beside ServerOptions (app.ts BuildOptions). */
const BUILD_OPTION_KEYS = ['now', 'logStream', 'sqliteCheckpoints'];

const KNOWN: readonly string[] = [...SERVER_OPTION_KEYS, ...BUILD_OPTION_KEYS];

/** Throws INVALID_OPTION for a key startServer() does not know, naming the nearest known one. */
export function refuseUnknownOptions(options: object): void {
  for (const key of Object.keys(options)) {
    if (KNOWN.includes(key)) continue;
    const suggestion = nearestKey(key, SERVER_OPTION_KEYS);
    throw new ServerOptionError(
      key.slice(0, 100),
      `is not a server option.${suggestion ? ` Did you mean ${suggestion}?` : ''}`,
    );
  }
}
