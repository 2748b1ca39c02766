import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { FleetLedger } from '../ledger/fleet-ledger.js';
import { createExposition } from '../metrics-exposition.js';
import { fleetCounts } from '../health/health-service.js';
import { checkMetricsAccess } from './metrics-access.js';
import { failures } from './route-schema.js';
import { ACCESS } from '../accounts/route-rules.js';

/**
 * Counts every answered request (by status, and its latency by route pattern: label values stay
 * bounded whatever paths clients ask for) and serves GET /metrics (docs/outputs.md).
 */
const METRICS_SCHEMA = {
  summary: 'Prometheus metrics (the metrics token or the admin token)',
  security: [{ metricsToken: [] }, { adminToken: [] }],
  response: {
    200: {
      description: 'The Prometheus text exposition',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    ...failures('METRICS_TOKEN_REQUIRED', 'WRONG_TOKEN', 'FORBIDDEN'),
  },
} as const;

export function registerRequestMetrics(app: FastifyInstance, ctx: AppContext): void {
  const ledger = new FleetLedger(ctx.db, ctx.now);
  const exposition = createExposition(ctx.metrics, ctx.db, ledger, () => fleetCounts(ctx), ctx.parseAdmission);
  // A callback hook, not an async one: no promise per response.
  app.decorateRequest('uploadRecords', 0);
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    ctx.metrics.requestsByStatus.set(status, (ctx.metrics.requestsByStatus.get(status) ?? 0) + 1);
    exposition.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      status,
      reply.elapsedTime / 1000,
    );
    // The one place rejected records are counted: any 4xx of an upload route (refused type,
    // size, body, device, rate), but 401, after which the SDK refreshes its token and resends.
    if (status >= 400 && status < 500 && status !== 401 && request.routeOptions.config.ingest === true) {
      ctx.metrics.rejected += Math.max(1, request.uploadRecords);
    }
    done();
  });
  app.get('/metrics', { schema: METRICS_SCHEMA, config: ACCESS.public }, async (request, reply) => {
    await checkMetricsAccess(ctx, request);
    return reply.type(exposition.contentType).send(await exposition.render());
  });
}
