import type { FastifyBaseLogger } from 'fastify';
import { loadSigningKey } from './auth/signing-key.js';
import { createTokenService } from './auth/tokens.js';
import type { AppContext } from './context.js';
import type { Database } from './db/database.js';
import { parseDatabaseUrl } from './db/postgres.js';
import { fleetLogTo, SILENT_FLEET_LOG, type FleetLog } from './fleet/fleet-log.js';
import { startFleet, type FleetService } from './fleet/fleet-service.js';
import { createIngestQueue, parseBudgetBytes } from './ingest/ingest-queue.js';
import { ParseAdmission } from './ingest/parse-admission.js';
import { LiveEvents } from './live-events.js';
import { createLocalFeed, type LiveFeed } from './live/live-feed.js';
import { createLiveRelay } from './live/live-relay.js';
import { createNatsFeed, LIVE_FEED_SUBSCRIBED, liveSubjectOf } from './live/nats-feed.js';
import { createPostgresFeed } from './live/postgres-feed.js';
import { createMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import { createRateLimiter, ruleFor } from './rate-limit/limiter.js';
import { retentionLogTo } from './retention/retention-log.js';
import { saturationOf, shareOf } from './retention/duty.js';
import { RetentionWorker } from './retention/retention-worker.js';

/** Logins tried per second per client address (a burst of 10): guessing the admin token stays hopeless. */
const LOGIN_RATE_PER_SECOND = 0.5;

/** Password logins per account: 10 at once, then one a minute (a wrong guess costs the guesser, and the account's owner little). */
const ACCOUNT_LOGIN_RULE = { ratePerSecond: 1 / 60, burst: 10 };

export interface OpenedContext {
  ctx: AppContext;
  /** Gives the workers the app's log once it exists (they may have started before). */
  attachLog(log: FastifyBaseLogger): void;
}

/**
 * The service's long-lived parts over an open, migrated database: the live feed, fleet delivery,
 * the ingest queue, rate limits and retention. On failure whatever was started is closed again.
 */
export async function openContext(db: Database, resolved: ResolvedOptions, now: () => number): Promise<OpenedContext> {
  let live: LiveFeed | null = null;
  let fleet: FleetService | null = null;
  try {
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
            createLiveRelay(db, events, now),
            () => logLiveSubscribed(),
          )
        : resolved.databaseUrl
          ? await createPostgresFeed(db, resolved.databaseUrl, resolved.schema, createLiveRelay(db, events, now))
          : createLocalFeed(events);
    const metrics = createMetrics();
    // A failed round (a database hiccup) is tried again at the next poll; logged once the log exists.
    let fleetLog: FleetLog = SILENT_FLEET_LOG;
    // Delivery and retention yield to a saturated ingest (the queue is made below).
    let ingestSaturated = () => false;
    // The share of ingest's commit slots in use: retention leaves it to them (retention/duty.ts).
    let committing = () => 0;
    // How saturated ingest is, as retention reads it (duty.ts saturationOf).
    let saturation = () => 0;
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
        resentInDoubt: (sinkId, eventId, deviceId) => fleetLog.resentInDoubt(sinkId, eventId, deviceId),
      },
      () => ingestSaturated(),
    );
    const fleetService = fleet;
    let retentionLog: FastifyBaseLogger | null = null;
    const ingestQueue = createIngestQueue(db, now, resolved.poolSize, {
      lateAfterMs: resolved.fleet.lateAfterMs,
      config: (tx, version) => fleetService.config(tx, version),
      committed: () => fleetService.wake(),
    });
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
      ingestQueue,
      parseAdmission: new ParseAdmission(parseBudgetBytes(ingestQueue)),
      rateLimiter: createRateLimiter(
        {
          device: ruleFor(resolved.rateLimit),
          address: ruleFor(resolved.rateLimitPerAddress),
          login: ruleFor(LOGIN_RATE_PER_SECOND),
          account: ACCOUNT_LOGIN_RULE,
        },
        now,
        (scope) => metrics.rateLimited.set(scope, (metrics.rateLimited.get(scope) ?? 0) + 1),
      ),
      fleet: fleetService,
      retention: new RetentionWorker(db, resolved.retention, now, {
        ...retentionLogTo(() => retentionLog),
        ingestLoad: () => ({ saturated: saturation(), committing: committing() }),
      }),
    };
    const queue = ctx.ingestQueue;
    ingestSaturated = () => queue.saturated;
    committing = shareOf(() => queue.busyMs);
    saturation = saturationOf(db.dialect, queue);
    return {
      ctx,
      attachLog(log) {
        fleetLog = fleetLogTo(log);
        retentionLog = log;
        logLiveSubscribed = () =>
          log.info(
            { code: LIVE_FEED_SUBSCRIBED },
            'live feed: subscribed on NATS; positions of other processes arrive',
          );
        if (liveSubscribed) logLiveSubscribed();
      },
    };
  } catch (error) {
    await fleet?.close();
    await live?.close();
    throw error;
  }
}

/** Closes what openContext opened, the database last. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.retention.close();
  await ctx.ingestQueue.drain();
  await ctx.fleet.close();
  await ctx.live.close();
  await ctx.db.close();
}
