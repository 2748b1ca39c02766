import cookie from '@fastify/cookie';
import {
  COLUMNAR_CODING,
  DROPPED_HEADER,
  HEALTH_ACCEPTED_HEADER,
  HEALTH_HEADER,
  LEDGER_HEADER,
} from '@waypost/sdk/internal';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { keptAdminToken } from './auth/kept-admin-token.js';
import { loadSigningKey } from './auth/signing-key.js';
import { createTokenService } from './auth/tokens.js';
import type { AppContext } from './context.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrations.js';
import { openPostgres, parseDatabaseUrl } from './db/postgres.js';
import { openSqlite } from './db/sqlite.js';
import { registerBodyGuards } from './http/body-guards.js';
import { errorReply } from './http/error-reply.js';
import { schemaKeyError } from './http/unknown-keys.js';
import { createRouteIndex } from './http/method-routing.js';
import { collectRoutes } from './http/route-list.js';
import { registerCompression } from './http/compression.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRequestMetrics } from './http/request-metrics.js';
import { EXPOSED_HEADERS, registerMethodAnswers } from './http/not-found.js';
import { requestLogOptions } from './http/request-log.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { startFleet, type FleetService } from './fleet/fleet-service.js';
import { createIngestQueue } from './ingest/ingest-queue.js';
import { fleetRoutes } from './routes/fleet-admin.js';
import { fleetLogTo, SILENT_FLEET_LOG, type FleetLog } from './fleet/fleet-log.js';
import { fleetHistoryRoutes } from './routes/fleet-history.js';
import { closeKeepAliveOnClose } from './http/close-keep-alive.js';
import { LiveEvents } from './live-events.js';
import { createLocalFeed, type LiveFeed } from './live/live-feed.js';
import { createNatsFeed, LIVE_FEED_SUBSCRIBED, liveSubjectOf } from './live/nats-feed.js';
import { createPostgresFeed } from './live/postgres-feed.js';
import { createMetrics } from './metrics.js';
import { resolveOptions, type ServerOptions } from './options.js';
import { createRateLimiter, ruleFor, type RateLimitScope } from './rate-limit/limiter.js';
import { quarantineRoutes } from './routes/quarantine.js';
import { ledgerRoutes } from './routes/ledger.js';
import { healthRoutes } from './routes/health.js';
import { adminRoutes } from './routes/admin.js';
import { authRoutes } from './routes/auth.js';
import { dashboardApiRoutes } from './routes/dashboard-api.js';
import { trackGapRoutes } from './routes/track-gaps.js';
import { browserSdkRoutes } from './routes/browser-sdk.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { eventRoutes } from './routes/events.js';
import { anchorRoutes } from './routes/anchor/index.js';
import { ingestRoutes } from './routes/ingest.js';
import { orgAdminRoutes } from './routes/orgs-admin.js';
import { logRoutes } from './routes/logs.js';
import { sessionRoutes } from './routes/session.js';
import { shareRoutes } from './routes/shares.js';
import { openTileFile, tileFileRoutes, type TileFile } from './routes/mbtiles.js';
import { mapSourcesOf } from './routes/basemap-config.js';
import { retentionRoutes } from './routes/retention.js';
import { trackTileRoutes } from './routes/track-tiles.js';
import { auditRoutes } from './routes/audit.js';
import { userRoutes } from './routes/users.js';
import { registerAuditTrail } from './audit/audit-trail.js';
import { registerRoleGate } from './accounts/role-gate.js';
import { RetentionWorker } from './retention/retention-worker.js';
import { retentionLogTo } from './retention/retention-log.js';

export interface BuildOptions extends ServerOptions {
  /** The server's clock (epoch ms), for token expiry and rate limits in tests; default Date.now. */
  now?: () => number;
  /** Where the request log goes (with logger: true); default stdout. */
  logStream?: { write(line: string): void };
}

/** Retention takes its smaller share while an upload committed within this long (retention-worker.ts). */
const INGEST_BUSY_MS = 1000;

/** Logins tried per second per client address (a burst of 10): guessing the admin token stays hopeless. */
const LOGIN_RATE_PER_SECOND = 0.5;

/** Password logins per account: 10 at once, then one a minute (a wrong guess costs the guesser, and the account's owner little). */
const ACCOUNT_LOGIN_RULE = { ratePerSecond: 1 / 60, burst: 10 };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit scope of a route's requests per client address; default 'address'. */
    rateLimitScope?: RateLimitScope;
  }
  interface FastifyInstance {
    /** The service's context (database, options, metrics, ...), for startServer and tools. */
    waypost: AppContext;
  }
}

/** A route path without its query (Fastify's routeOptions.url). */
const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? '';
/** Routes mark themselves as upload routes (routes/upload-route.ts, INGEST_ROUTE). */
const isIngest = (request: FastifyRequest): boolean => request.routeOptions.config.ingest === true;

/** The request content codings body-guards decode (http/decompress.ts). */
const ACCEPTED_REQUEST_CODINGS = `gzip, deflate, br, ${COLUMNAR_CODING}`;

async function openDatabase(options: ReturnType<typeof resolveOptions>): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize);
  return openSqlite(options.database);
}

/** The Fastify app over an open, migrated database. Closing the app closes the database. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  const now = options.now ?? Date.now;
  const db = await openDatabase(resolved);
  let app: FastifyInstance;
  let live: LiveFeed | null = null;
  let fleet: FleetService | null = null;
  let retention: RetentionWorker | null = null;
  try {
    await migrate(db);
    if (resolved.adminToken === '') {
      const kept = await keptAdminToken(db, resolved);
      resolved.adminToken = kept.token;
      resolved.adminTokenKeptIn = kept.keptIn;
    }
    const key = await loadSigningKey(db);
    const events = new LiveEvents();
    // Said once the app's log exists (the subscription may be in place before it is).
    let liveSubscribed = false;
    let logLiveSubscribed: () => void = () => {
      liveSubscribed = true;
    };
    // Several processes share positions through NATS when one is given, else LISTEN/NOTIFY.
    live =
      resolved.databaseUrl && resolved.fleet.natsUrl
        ? createNatsFeed(
            resolved.fleet.natsUrl,
            liveSubjectOf(parseDatabaseUrl(resolved.databaseUrl, resolved.schema).schema),
            events,
            () => logLiveSubscribed(),
          )
        : resolved.databaseUrl
          ? await createPostgresFeed(db, resolved.databaseUrl, resolved.schema, events)
          : createLocalFeed(events);
    const metrics = createMetrics();
    // Logged once the app exists; a failed round (a database hiccup) is tried again at the next poll.
    let fleetLog: FleetLog = SILENT_FLEET_LOG;
    // Delivery yields to a saturated ingest (the queue is made below, with the context).
    let ingestSaturated = () => false;
    // When uploads last committed (wall time): retention yields to a server that is taking uploads.
    let lastCommitAt = -Infinity;
    fleet = await startFleet(
      db,
      resolved.fleet,
      now,
      {
        error: (error) => fleetLog.error(error),
        round: (report) => {
          metrics.countRound(report);
          fleetLog.round(report);
        },
        configChanged: (sinks, geofences) => fleetLog.configChanged(sinks, geofences),
        sinkForgotten: (sinkId, removed) => fleetLog.sinkForgotten(sinkId, removed),
      },
      () => ingestSaturated(),
    );
    const fleetService = fleet;
    const limiter = createRateLimiter(
      {
        device: ruleFor(resolved.rateLimit),
        address: ruleFor(resolved.rateLimitPerAddress),
        login: ruleFor(LOGIN_RATE_PER_SECOND),
        account: ACCOUNT_LOGIN_RULE,
      },
      now,
      (scope) => metrics.rateLimited.set(scope, (metrics.rateLimited.get(scope) ?? 0) + 1),
    );
    // Logged once the app exists (the first pass starts once the app is built).
    let retentionLog: FastifyInstance['log'] | null = null;
    const ctx: AppContext = {
      db,
      options: resolved,
      tokens: createTokenService(key, {
        accessTtlSeconds: resolved.accessTokenTtlSeconds,
        refreshTtlSeconds: resolved.refreshTokenTtlSeconds,
        now,
      }),
      metrics,
      events,
      live,
      now,
      ingestQueue: createIngestQueue(db, now, resolved.poolSize, {
        lateAfterMs: resolved.fleet.lateAfterMs,
        config: (tx, version) => fleetService.config(tx, version),
        committed: () => {
          lastCommitAt = performance.now();
          fleetService.wake();
        },
      }),
      rateLimiter: limiter,
      fleet: fleetService,
      retention: new RetentionWorker(db, resolved.retention, now, {
        ...retentionLogTo(() => retentionLog),
        ingestBusy: () => ingestSaturated() || performance.now() - lastCommitAt < INGEST_BUSY_MS,
      }),
    };
    retention = ctx.retention;
    const queue = ctx.ingestQueue;
    ingestSaturated = () => queue.saturated;
    const routes = createRouteIndex();
    app = Fastify({
      logger: resolved.logger
        ? { level: 'info', ...requestLogOptions, ...(options.logStream ? { stream: options.logStream } : {}) }
        : false,
      bodyLimit: resolved.bodyLimitBytes,
      // A device id may be 200 characters; percent-encoded in /api/devices/:id it can be 9 times
      // that (3-byte UTF-8). Fastify's default of 100 would answer 414 for such a device.
      routerOptions: { maxParamLength: 2048 },
      // /osmand/ is /osmand when only the latter is a route (http/method-routing.ts).
      rewriteUrl: (request) => routes.rewrite(request.method, request.url),
      trustProxy: resolved.trustProxy,
      // Slow clients cannot hold the server: headers and whole requests have a deadline (408),
      // checked every second (Node's default check, every 30 s, would let them stay that long).
      requestTimeout: resolved.requestTimeoutMs,
      http: {
        headersTimeout: Math.min(resolved.headersTimeoutMs, resolved.requestTimeoutMs),
        connectionsCheckingInterval: Math.min(1000, resolved.headersTimeoutMs),
      },
      // Route schemas check; they never rewrite (Fastify's default would turn a body of 17 into [17]).
      ajv: { customOptions: { coerceTypes: false, allowUnionTypes: true } },
    });
    app.server.maxConnections = resolved.maxConnections;
    routes.track(app);
    collectRoutes(app);
    closeKeepAliveOnClose(app);
    const log = app.log;
    fleetLog = fleetLogTo(log);
    retentionLog = log;
    logLiveSubscribed = () =>
      log.info({ code: LIVE_FEED_SUBSCRIBED }, 'live feed: subscribed on NATS; positions of other processes arrive');
    if (liveSubscribed) logLiveSubscribed();
    app.decorate('waypost', ctx);
    registerSecurityHeaders(app, mapSourcesOf(resolved));
    registerMethodAnswers(app, routes);
    if (resolved.corsOrigins.length > 0) {
      await app.register(cors, {
        origin: resolved.corsOrigins,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: [
          'content-type',
          'authorization',
          'x-device-id',
          'content-encoding',
          DROPPED_HEADER,
          HEALTH_HEADER,
        ],
        // A page on another origin reads what the SDK learns from (Retry-After, codings, the
        // ledger, health reports) and where an export continues.
        exposedHeaders: EXPOSED_HEADERS,
        maxAge: 600,
      });
    }
    await registerCompression(app);
    await registerOpenApi(app);
    await app.register(cookie);
    await app.register(formbody);
    await app.register(multipart, { limits: { fileSize: resolved.bodyLimitBytes, files: 1, fields: 50 } });
    // Per client address, before anything is read; /health stays answerable for monitors.
    app.addHook('onRequest', (request, reply, done) => {
      // Request codings this service decodes, advertised on every ingest answer (RFC 7694), errors
      // included: the SDK compresses its uploads only once a server has said so.
      // And that this service keeps the delivery ledger: the SDK then reports its dropped sequence
      // numbers (Waypost-Dropped), which it never sends to a server that did not say so.
      // And that it reads device health reports (Waypost-Health), under the same rule.
      if (isIngest(request)) {
        reply
          .header('accept-encoding', ACCEPTED_REQUEST_CODINGS)
          .header(LEDGER_HEADER, '1')
          .header(HEALTH_ACCEPTED_HEADER, '1');
      }
      if (routeOf(request) === '/health') return done();
      try {
        limiter.take('address', request.ip);
        if (request.routeOptions.config.rateLimitScope === 'login') limiter.take('login', request.ip);
        done();
      } catch (error) {
        done(error as Error);
      }
    });
    registerBodyGuards(app, ctx);
    registerAuditTrail(app, ctx);
    registerRoleGate(app, ctx);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const where = `the body of ${request.method} ${routeOf(request)}`;
      const keyError = schemaKeyError(error, request.routeOptions.schema?.body, request.body, where);
      const { status, body, headers } = errorReply(keyError ?? error, resolved.bodyLimitBytes);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(status).headers(headers).send(body);
    });
    registerRequestMetrics(app, ctx);
    app.addHook('onClose', async () => {
      await ctx.retention.close();
      await ctx.ingestQueue.drain();
      await ctx.fleet.close();
      await ctx.live.close();
      await db.close();
    });
    app.get('/health', async () => ({ ok: true }));
    await app.register(ingestRoutes, { ctx });
    await app.register(anchorRoutes, { ctx });
    await app.register(orgAdminRoutes, { ctx });
    await app.register(authRoutes, { ctx });
    await app.register(adminRoutes, { ctx });
    await app.register(fleetRoutes, { ctx });
    await app.register(fleetHistoryRoutes, { ctx });
    await app.register(quarantineRoutes, { ctx });
    await app.register(ledgerRoutes, { ctx });
    await app.register(healthRoutes, { ctx });
    await app.register(logRoutes, { ctx });
    await app.register(eventRoutes, { ctx });
    await app.register(sessionRoutes, { ctx });
    await app.register(dashboardApiRoutes, { ctx });
    await app.register(trackGapRoutes, { ctx });
    await app.register(trackTileRoutes, { ctx });
    await app.register(shareRoutes, { ctx });
    await app.register(retentionRoutes, { ctx });
    await app.register(auditRoutes, { ctx });
    await app.register(userRoutes, { ctx });
    let tiles: TileFile | null = null;
    if (resolved.tileFile) {
      if (resolved.tileUrl) throw new Error('Give tileUrl or tileFile, not both');
      tiles = await openTileFile(resolved.tileFile);
      await app.register(tileFileRoutes, { tiles });
    }
    await app.register(dashboardRoutes, { ctx, tiles });
    await app.register(browserSdkRoutes, { ctx });
    ctx.retention.start();
  } catch (error) {
    await retention?.close();
    await fleet?.close();
    await live?.close();
    await db.close();
    throw error;
  }
  return app;
}
