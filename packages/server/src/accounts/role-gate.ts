import type { FastifyInstance } from 'fastify';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { ruleOf } from './route-rules.js';
import { checkUserAccess } from './user-access.js';

/**
 * The role rules applied to every user's request centrally, before the body is validated (a
 * viewer learns nothing of a write route's body, and a route's own gate is a second check, not
 * the only one). The admin, devices and org tokens go on to each route's own gate.
 */
export function registerRoleGate(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preValidation', async (request) => {
    // Public routes (the login, uploads, the anchor's API) are not the gate's: their own rules hold.
    if (request.routeOptions.config.ingest === true || !ruleOf(request)) return;
    const principal = await principalOf(ctx, request).catch(() => null);
    if (principal?.kind === 'user') await checkUserAccess(ctx, request, principal);
  });
}
