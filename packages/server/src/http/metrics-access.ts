import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { bearerOf, principalOf, sameSecret } from '../auth/principal.js';

/**
 * Who may read GET /metrics (issue 41): the fleet's counts (devices by state, records stored,
 * each sink's backlog) are every org's at once, so not anyone who reaches the port, nor a user
 * limited to one org. The metrics token (the one credential Prometheus is given: it reads nothing
 * else) or the admin (token, session, login token).
 */
export async function checkMetricsAccess(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const token = bearerOf(request);
  const metricsToken = ctx.options.metricsToken;
  if (token !== null && metricsToken !== null && sameSecret(token, metricsToken)) return;
  const principal = await principalOf(ctx, request).catch(() => null);
  if (principal?.kind === 'admin') return;
  if (principal?.kind === 'user' || principal?.kind === 'device' || principal?.kind === 'org')
    throw new HttpError(
      403,
      'FORBIDDEN',
      '/metrics counts the whole fleet: it takes the metrics token or the admin token',
    );
  throw new HttpError(
    401,
    token === null ? 'METRICS_TOKEN_REQUIRED' : 'WRONG_TOKEN',
    `Send the metrics token (Authorization: Bearer <metricsToken>, WAYPOST_METRICS_TOKEN) or the admin token`,
  );
}
