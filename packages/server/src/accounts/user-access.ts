import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { HttpError } from '../errors.js';
import { inGroups } from '../store/device-groups.js';
import { orgOfDevice } from '../store/orgs.js';
import { roleAllows, type UserPrincipal } from './roles.js';
import { ruleOf } from './route-rules.js';

/** What a limited user is told about anything outside their scope: the same as about nothing at all. */
export const notFound = (): HttpError => new HttpError(404, 'NOT_FOUND', 'Not found');

/** A user limited to orgs or device groups (or both: then either's devices). */
export type LimitedUser = UserPrincipal & ({ orgs: string[] } | { groups: string[] });

export const isLimited = (reader: { kind: string; orgs?: unknown; groups?: unknown }): reader is LimitedUser =>
  reader.kind === 'user' && (reader.orgs !== null || reader.groups !== null);

/** Whether `org` is one of the user's orgs (every org, and no org, for an unlimited user). */
export const inScope = (user: UserPrincipal, org: string | null): boolean =>
  !isLimited(user) || (org !== null && user.orgs !== null && user.orgs.includes(org));

/** Whether the user may see this device: in one of their orgs or one of their groups. */
export async function deviceVisible(db: Queryable, user: UserPrincipal, deviceId: string): Promise<boolean> {
  if (!isLimited(user)) return true;
  if (user.orgs !== null && inScope(user, await orgOfDevice(db, deviceId))) return true;
  return user.groups !== null && inGroups(db, user.groups, deviceId);
}

/**
 * A user's access to this route: their role against the route's rule (403 ROLE_FORBIDDEN), then
 * their scope against what it reaches (404, as for a device that does not exist). A public route
 * (no rule) is refused (403 NO_ROLE_RULE): forgetting a rule never opens a route. Decided once per
 * request: the role gate asks first, the route's own gate gets the same answer without a query.
 */
export function checkUserAccess(ctx: AppContext, request: FastifyRequest, user: UserPrincipal): Promise<void> {
  let decided = decisions.get(request);
  if (!decided) {
    decided = decideUserAccess(ctx, request, user);
    decisions.set(request, decided);
  }
  return decided;
}

const decisions = new WeakMap<FastifyRequest, Promise<void>>();

async function decideUserAccess(ctx: AppContext, request: FastifyRequest, user: UserPrincipal): Promise<void> {
  const rule = ruleOf(request);
  if (!rule) throw new HttpError(403, 'NO_ROLE_RULE', 'This route is open to the admin token only');
  if (!roleAllows(user.role, rule.role)) {
    throw new HttpError(403, 'ROLE_FORBIDDEN', `This needs the ${rule.role} role; ${user.name} is a ${user.role}`);
  }
  if (!isLimited(user) || rule.scope === 'filtered' || rule.scope === 'self' || rule.scope === 'global') return;
  if (rule.scope === 'none') throw notFound();
  const id = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !(await deviceVisible(ctx.db, user, id))) throw notFound();
}
