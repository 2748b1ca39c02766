import type { TokenService } from './auth/tokens.js';
import type { Database } from './db/database.js';
import type { FleetService } from './fleet/fleet-service.js';
import type { IngestQueue } from './ingest/ingest-queue.js';
import type { ParseAdmission } from './ingest/parse-admission.js';
import type { LiveEvents } from './live-events.js';
import type { LiveFeed } from './live/live-feed.js';
import type { Metrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import type { RetentionWorker } from './retention/retention-worker.js';

/** What every route needs: built once per server by buildApp. */
export interface AppContext {
  db: Database;
  options: ResolvedOptions;
  tokens: TokenService;
  metrics: Metrics;
  events: LiveEvents;
  /** Publishes stored positions to every process's dashboards (LISTEN/NOTIFY on PostgreSQL). */
  live: LiveFeed;
  now: () => number;
  /** Coalesces concurrent uploads into shared transactions (group commit). */
  ingestQueue: IngestQueue;
  /** Upload bodies parsed at once, bounded (http/upload-admission.ts). */
  parseAdmission: ParseAdmission;
  /** Token buckets per device and per client address (429 with Retry-After). */
  rateLimiter: RateLimiter;
  /** Fleet events (issue 21): sinks, delivery, silence. */
  fleet: FleetService;
  /** Retention (issue 33): removes what is past its period, in bounded batches. */
  retention: RetentionWorker;
}
