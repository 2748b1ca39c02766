import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { orgOfDevice } from '../store/orgs.js';
import { roleAllows, type UserPrincipal } from './roles.js';
import { ruleOf } from './route-rules.js';

/** What a limited user is told about anything outside their orgs: the same as about nothing at all. */
export const notFound = (): HttpError => new HttpError(404, 'NOT_FOUND', 'Not found');

/** Whether `org` is inside the user's orgs (every org, and no org, for an unlimited user). */
export const inScope = (user: UserPrincipal, org: string | null): boolean =>
  user.orgs === null || (org !== null && user.orgs.includes(org));

/**
 * A user's access to this route: their role against the route's rule (403 ROLE_FORBIDDEN), then
 * their orgs against what it reaches (404, as for a device that does not exist). A route with no
 * rule is refused (403 NO_ROLE_RULE): forgetting a rule never opens a route.
 */
export async function checkUserAccess(ctx: AppContext, request: FastifyRequest, user: UserPrincipal): Promise<void> {
  const rule = ruleOf(request.method, request.routeOptions.url);
  if (!rule) throw new HttpError(403, 'NO_ROLE_RULE', 'This route is open to the admin token only');
  if (!roleAllows(user.role, rule.role)) {
    throw new HttpError(403, 'ROLE_FORBIDDEN', `This needs the ${rule.role} role; ${user.name} is a ${user.role}`);
  }
  if (user.orgs === null || rule.scope === 'filtered' || rule.scope === 'self' || rule.scope === 'global') return;
  if (rule.scope === 'none') throw notFound();
  const id = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !inScope(user, await orgOfDevice(ctx.db, id))) throw notFound();
}
