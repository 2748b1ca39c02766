import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf, requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { ruleOf } from './route-rules.js';

/**
 * The role rules applied to every user's request centrally, before the body is validated (a
 * viewer learns nothing of a write route's body, and a route's own gate is a second check, not
 * the only one). Nobody (no credential, or a token of no one) is refused here too, with the
 * route's own 401: a request without a body passes the credential gate (auth/credential-gate.ts)
 * and would otherwise meet the body's schema first, a 400 to a caller who may not write at all.
 * The admin, devices and org tokens go on to each route's own gate (some anchor paths take
 * the latter two).
 */
export function registerRoleGate(app: FastifyInstance, ctx: AppContext): void {
  // A callback hook, not an async one: no promise for a request the gate leaves alone (uploads).
  app.addHook('preValidation', (request, _reply, done) => {
    // Public routes (the login, uploads, the anchor's API) are not the gate's: their own rules hold.
    if (request.routeOptions.config.ingest === true || !ruleOf(request)) return done();
    gate(ctx, request).then(
      () => done(),
      (error: unknown) => done(error as Error),
    );
  });
}

async function gate(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const principal = await principalOf(ctx, request).catch(() => null);
  // requireAdmin: a user's role and orgs against the rule, nobody's 401 (ADMIN_TOKEN_REQUIRED or WRONG_TOKEN).
  if (principal?.kind === 'user' || principal?.kind === 'anonymous') await requireAdmin(ctx, request);
}
