import { integerFlag, numberFlag, stringFlag } from '../args.js';
import { CliError, EXIT_OK, usageError } from '../errors.js';
import {
  dashboardUrl,
  loadOptionCheck,
  loadStartServer,
  type RunningServer,
  type StartOptions,
} from '../server-loader.js';
import { checkAdminToken } from '../server/admin-token.js';
import { checkDatabaseUrl, databaseStartError } from '../server/database-url.js';
import { OIDC_FLAGS, OIDC_HELP, OIDC_OPTIONS, oidcOptions } from '../server/oidc-flags.js';
import type { Command } from './command.js';

const NAME = 'waypost server';

/** startServer()'s options as this command line sets them. */
const FLAG_OF_OPTION: Record<string, string> = {
  port: '--port',
  host: '--host',
  mapStyle: '--map-style',
  tileUrl: '--tile-url',
  tileFile: '--tiles',
  adminToken: '--admin-token',
  registration: '--registration',
  rateLimit: '--rate-limit',
  rateLimitPerAddress: '--rate-limit-address',
  corsOrigins: '--cors-origins',
  maxConnections: '--max-connections',
  liveFeedsPerUser: '--live-feeds-per-user',
  liveFeedsPerAddress: '--live-feeds-per-address',
  liveFeedsShare: '--live-feeds-share',
  webhooks: '--webhook',
  mqttUrl: '--mqtt',
  natsUrl: '--nats',
  sinkEvents: '--sink-events',
  allowPrivateSinks: '--allow-private-sinks',
  mqttTopicPrefix: '--mqtt-topic-prefix',
  natsStream: '--nats-stream',
  natsSubjectPrefix: '--nats-subject-prefix',
  silentAfterSeconds: '--silent-after',
  retentionDays: '--retention-days',
  ...OIDC_FLAGS,
};

/** The flag and what is wrong with it, when the service refused one of its options (ServerOptionError). */
function optionFlag(error: unknown): string | null {
  const e = error as { code?: unknown; option?: unknown; detail?: unknown };
  if (e?.code !== 'INVALID_OPTION' || typeof e.option !== 'string' || typeof e.detail !== 'string') return null;
  if (e.option === 'registrationSecret')
    return '--registration secret needs the secret in env WAYPOST_REGISTRATION_SECRET';
  if (e.option === 'metricsToken') return `env WAYPOST_METRICS_TOKEN ${e.detail}`;
  // The detail may name another option ("tileFile"): the user knows flags. Quoted values are the user's.
  const detail = e.detail.replace(/"(?:[^"\\]|\\.)*"|\b[a-z]+[A-Z][A-Za-z]*\b/g, (word) =>
    word.startsWith('"') ? word : (FLAG_OF_OPTION[word] ?? word),
  );
  return `${FLAG_OF_OPTION[e.option] ?? e.option} ${detail}`;
}

/** A comma-separated flag's entries, or undefined when it was not given. */
const listFlag = (values: Record<string, string | boolean | undefined>, name: string): string[] | undefined =>
  stringFlag(values, name)
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** The live-feed bounds given on the command line (the service keeps its defaults otherwise). */
function liveFeedFlags(values: Record<string, string | boolean | undefined>) {
  const given = (flag: string) => stringFlag(values, flag) !== undefined;
  const count = (flag: string) => integerFlag(NAME, values, flag, 1, { min: 1, max: 1_000_000 });
  return {
    ...(given('live-feeds-per-user') ? { liveFeedsPerUser: count('live-feeds-per-user') } : {}),
    ...(given('live-feeds-per-address') ? { liveFeedsPerAddress: count('live-feeds-per-address') } : {}),
    ...(given('live-feeds-share') ? { liveFeedsShare: numberFlag(NAME, values, 'live-feeds-share', 0.5, 0) } : {}),
  };
}

/** The broker names given on the command line (the service checks them and keeps its defaults otherwise). */
function brokerNameFlags(values: Record<string, string | boolean | undefined>) {
  const names = {
    mqttTopicPrefix: stringFlag(values, 'mqtt-topic-prefix'),
    natsStream: stringFlag(values, 'nats-stream'),
    natsSubjectPrefix: stringFlag(values, 'nats-subject-prefix'),
  };
  return Object.fromEntries(Object.entries(names).filter(([, value]) => value !== undefined));
}

export const serverCommand: Command = {
  name: 'server',
  summary: 'run the receiving service (ingest, admin API, dashboard)',
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    database: { type: 'string' },
    'require-tokens': { type: 'boolean' },
    'map-style': { type: 'string' },
    'tile-url': { type: 'string' },
    tiles: { type: 'string' },
    'admin-token': { type: 'string' },
    log: { type: 'boolean' },
    registration: { type: 'string' },
    'rate-limit': { type: 'string' },
    'rate-limit-address': { type: 'string' },
    'cors-origins': { type: 'string' },
    'trust-proxy': { type: 'boolean' },
    'max-connections': { type: 'string' },
    'live-feeds-per-user': { type: 'string' },
    'live-feeds-per-address': { type: 'string' },
    'live-feeds-share': { type: 'string' },
    webhook: { type: 'string', multiple: true },
    mqtt: { type: 'string' },
    nats: { type: 'string' },
    'sink-events': { type: 'string' },
    'allow-private-sinks': { type: 'string' },
    'mqtt-topic-prefix': { type: 'string' },
    'nats-stream': { type: 'string' },
    'nats-subject-prefix': { type: 'string' },
    'silent-after': { type: 'string' },
    'retention-days': { type: 'string' },
    'drain-seconds': { type: 'string' },
    ...OIDC_OPTIONS,
  },
  help: `Usage: ${NAME} [options]

Starts the Waypost service and runs until SIGINT (Ctrl-C) or SIGTERM, then closes cleanly.
Prints its URL, and the admin token when it generated one, on stdout. Devices upload to <url>/locations.

Options:
  --port N            port to listen on (default 8080; 0 = any free port)
  --host H            address to listen on (default 127.0.0.1)
  --database FILE     SQLite file (default ./waypost-server.db); with env DATABASE_URL set
                      (postgres://USER:PASSWORD@HOST:5432/DATABASE), PostgreSQL is used instead
  --require-tokens    uploads need a device access token or device key (401 otherwise)
  --map-style URL     the dashboard's street map, a MapLibre style URL (default: OpenFreeMap's
                      Liberty, https://tiles.openfreemap.org/styles/liberty); none: the offline
                      outline only, no request to anyone
  --tile-url URL      raster map tiles for the dashboard ({z}/{x}/{y}) instead of a style
  --tiles FILE        a local MBTiles file (raster, or vector pbf in the OpenMapTiles schema) as
                      the dashboard's map, served at /tiles/: no third-party request
  --admin-token T     the admin token, 16 characters at least (default: env WAYPOST_ADMIN_TOKEN,
                      else one generated on first start and kept: in <database>.admin-token,
                      owner-only, beside a SQLite file; in the settings table with DATABASE_URL)
  env WAYPOST_METRICS_TOKEN
                      the token that reads GET /metrics, 16 characters at least (Prometheus
                      sends it); without it only the admin token does
  --log               request log on stdout (credentials redacted)
  --registration M    who may register devices: open (default; an existing device id needs
                      its own token or the admin token), secret (callers with the enrollment
                      secret of env WAYPOST_REGISTRATION_SECRET, sent as X-Registration-Secret),
                      admin (the admin token only)
  --rate-limit N      requests/s per device (burst 20x; 429 with Retry-After); default 20, 0 off
  --rate-limit-address N
                      requests/s per client address (burst 20x); default 1000, 0 off
  --cors-origins L    comma-separated origins allowed to call the API from a browser; default none
  --trust-proxy       behind a reverse proxy: client address and https from X-Forwarded-*
  --max-connections N open connections at most (keep-alive devices included; more are closed
                      at once); default 10000
  --live-feeds-per-user N, --live-feeds-per-address N
                      dashboards' live feeds open at once per user and per client address
                      (429 beyond); default 10 and 20
  --live-feeds-share F  the share of --max-connections live feeds may take in all (503
                      beyond), the rest kept for devices; default 0.5
  --drain-seconds S   on SIGTERM, first drain for S seconds: /health answers 503 (a load
                      balancer's checks take the process out of rotation) while every request
                      that still comes is served; then close, finishing requests in flight;
                      default 0 (close at once)

Fleet events (geofences, device silence, trips; see the README):
  --webhook URL       send events to URL, signed per Standard Webhooks (repeatable); the
                      signing secret is printed at start and kept in the database
  --mqtt URL          publish events at QoS 1 to waypost/<device>/<type> on this broker
                      (mqtt://host:port)
  --nats URL          publish events to JetStream stream WAYPOST, subject
                      waypost.<device>.<type>, Nats-Msg-Id = event id (nats://host:port)
  --mqtt-topic-prefix P  MQTT topics P/<device>/<type>; default waypost
  --nats-stream S     the JetStream stream; default WAYPOST
  --nats-subject-prefix P  NATS subjects P.<device>.<type>; default waypost
  --sink-events L     comma-separated event types these sinks receive; default all but
                      location (geofence.enter, geofence.exit, geofence.dwell, device.silent,
                      device.active, trip.start, trip.end, location)
  --allow-private-sinks L  comma-separated hosts and ranges inside your network (10.0.0.0/8,
                      mqtt.internal) that operators' sinks may reach; default none (owners'
                      sinks and these flags' reach anywhere)
  --silent-after S    device.silent after S seconds without an upload; default 3600, 0 off
  --retention-days D  remove locations, quarantine, logs and fleet events older than D days,
                      continuously; default 0 (keep for ever)

${OIDC_HELP}
Exit codes: 0 stopped cleanly, 1 could not start (port in use, database error), 2 bad command line.
`,
  async run(values, _positionals, io) {
    const port = integerFlag(NAME, values, 'port', 8080, { min: 0, max: 65535 });
    const databaseUrl = io.env['DATABASE_URL'];
    const database = stringFlag(values, 'database');
    const adminToken = stringFlag(values, 'admin-token');
    checkAdminToken(NAME, adminToken, '--admin-token');
    if (adminToken === undefined) checkAdminToken(NAME, io.env['WAYPOST_ADMIN_TOKEN'], 'WAYPOST_ADMIN_TOKEN');
    if (databaseUrl) checkDatabaseUrl(NAME, databaseUrl);
    const tileUrl = stringFlag(values, 'tile-url');
    const registration = stringFlag(values, 'registration') ?? 'open';
    if (registration !== 'open' && registration !== 'secret' && registration !== 'admin') {
      throw usageError(`${NAME}: --registration must be open, secret or admin, got ${JSON.stringify(registration)}`);
    }
    const corsOrigins = (stringFlag(values, 'cors-origins') ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== '');
    const registrationSecret = io.env['WAYPOST_REGISTRATION_SECRET'];
    const metricsToken = io.env['WAYPOST_METRICS_TOKEN'];
    const webhooks = (values['webhook'] as unknown as string[] | undefined) ?? [];
    const mqttUrl = stringFlag(values, 'mqtt');
    const natsUrl = stringFlag(values, 'nats');
    const sinkEvents = listFlag(values, 'sink-events');
    const allowPrivateSinks = listFlag(values, 'allow-private-sinks');
    const rateLimit = numberFlag(NAME, values, 'rate-limit', 20, 0);
    const rateLimitPerAddress = numberFlag(NAME, values, 'rate-limit-address', 1000, 0);
    const maxConnections = integerFlag(NAME, values, 'max-connections', 10_000, { min: 1, max: 1_000_000 });
    const liveFeeds = liveFeedFlags(values);
    const silentAfterSeconds = numberFlag(NAME, values, 'silent-after', 3600, 0);
    const retentionDays = numberFlag(NAME, values, 'retention-days', 0, 0);
    const drainSeconds = numberFlag(NAME, values, 'drain-seconds', 0, 0);
    const oidc = oidcOptions(NAME, values);
    // Listen for SIGTERM/SIGINT before starting: a signal as soon as the URL is printed (a script,
    // systemd) must close the server cleanly, not kill it.
    const signalled = io.shutdown();
    let server: RunningServer;
    try {
      const options: StartOptions = {
        port,
        host: stringFlag(values, 'host') ?? '127.0.0.1',
        ...(databaseUrl ? { databaseUrl } : database ? { database } : {}),
        ...(adminToken ? { adminToken } : {}),
        requireTokens: values['require-tokens'] === true,
        ...(stringFlag(values, 'map-style') !== undefined ? { mapStyle: stringFlag(values, 'map-style') } : {}),
        tileUrl: tileUrl ?? null,
        tileFile: stringFlag(values, 'tiles') ?? null,
        logger: values['log'] === true,
        registration,
        ...(registrationSecret ? { registrationSecret } : {}),
        ...(metricsToken ? { metricsToken } : {}),
        rateLimit,
        rateLimitPerAddress,
        corsOrigins,
        trustProxy: values['trust-proxy'] === true,
        maxConnections,
        ...liveFeeds,
        webhooks,
        ...(mqttUrl ? { mqttUrl } : {}),
        ...(natsUrl ? { natsUrl } : {}),
        ...(sinkEvents ? { sinkEvents } : {}),
        ...(allowPrivateSinks ? { allowPrivateSinks } : {}),
        ...brokerNameFlags(values),
        silentAfterSeconds,
        retentionDays,
        ...oidc,
      };
      // A flag the service refuses is refused before the service is loaded.
      (await loadOptionCheck())(options);
      server = await (await loadStartServer())(options);
    } catch (error) {
      // A value the service refuses is a bad command line (exit 2), named by its flag.
      const refused = optionFlag(error);
      if (refused) throw usageError(`${NAME}: ${refused}`);
      const database = databaseUrl ? databaseStartError(NAME, databaseUrl, error) : null;
      if (database) throw database;
      throw new CliError('SERVER', `${NAME}: could not start: ${(error as Error).message}`);
    }
    const storage = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${database ?? './waypost-server.db'}`;
    // A token the operator gave is theirs already: echoing it would put it into the journal or
    // the --log file. A generated one is printed, as it is the only way to learn it.
    const givenBy = adminToken ? '--admin-token' : io.env['WAYPOST_ADMIN_TOKEN'] ? 'WAYPOST_ADMIN_TOKEN' : null;
    const token = givenBy
      ? `the one given by ${givenBy} (not printed)`
      : `${server.adminToken}${server.adminTokenKeptIn ? ` (kept in ${server.adminTokenKeptIn})` : ''}`;
    io.stdout.write(
      `url: ${server.url}\ningest: ${server.url}/locations\nadmin token: ${token}\n` +
        `dashboard: ${dashboardUrl(server.url)} (log in with the admin token)\n` +
        server.sinks
          .map((sink) => `${sink.kind}: ${sink.url}${sink.secret ? ` (secret ${sink.secret})` : ''}\n`)
          .join(''),
    );
    io.stderr.write(`waypost service listening on ${server.url} (${storage}); Ctrl-C to stop\n`);
    const signal = await signalled;
    if (drainSeconds > 0) {
      io.stderr.write(`${signal}: draining for ${drainSeconds} s (/health answers 503), then closing...\n`);
      await server.drain(drainSeconds * 1000);
    }
    io.stderr.write(`${signal}: closing...\n`);
    await server.close();
    io.stderr.write('closed\n');
    return EXIT_OK;
  },
};
