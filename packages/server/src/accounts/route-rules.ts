import type { FastifyRequest } from 'fastify';
import type { Role } from './roles.js';

/**
 * Where a user limited to orgs may go on a route:
 * - `device`: the route's `:id` is a device id; a device outside the user's orgs is a 404;
 * - `filtered`: the handler answers only what is inside the user's orgs (lists, the live feed);
 * - `self`: the user's own account (their password);
 * - `global`: the answer holds nothing of any org (the dashboard's command help);
 * - `none`: the route reads or changes what is not any one org's (fleet-wide settings, lists not
 *   yet narrowed): a 404 for a limited user, so nothing of another org leaks by it.
 */
export type ScopeRule = 'device' | 'filtered' | 'self' | 'global' | 'none';

export interface RouteRule {
  role: Role;
  scope: ScopeRule;
}

/**
 * What a route declares it needs, in its own options (`config: { access }`, issue 44): `public`
 * for a route that is no operator's (uploads and device credentials, the anchor's API with its own
 * tokens, share links, the login, the dashboard's files, the monitors' endpoints), or the role a
 * user needs and the scope it reaches. The admin token and an admin session pass every rule. A
 * route declaring nothing does not start (http/route-access-check.ts).
 */
export type RouteAccess = RouteRule | 'public';

export const PUBLIC: RouteAccess = 'public';

/** The role a route needs and where a limited user may go on it; every rule names its scope (no default). */
export const needs = (role: Role, scope: ScopeRule): RouteRule => ({ role, scope });

const rulesOf = (role: Role) => ({
  device: { access: needs(role, 'device') },
  filtered: { access: needs(role, 'filtered') },
  self: { access: needs(role, 'self') },
  global: { access: needs(role, 'global') },
  none: { access: needs(role, 'none') },
});

/** A route's `config`, by what it needs: `config: ACCESS.operator.device`, `config: ACCESS.public`. */
export const ACCESS = {
  public: { access: PUBLIC },
  viewer: rulesOf('viewer'),
  operator: rulesOf('operator'),
  owner: rulesOf('owner'),
} as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (accounts/route-rules.ts); required of every route. */
    access?: RouteAccess;
  }
}

/** The role rule of the request's route, or null for a public route. */
export function ruleOf(request: FastifyRequest): RouteRule | null {
  const access = request.routeOptions.config.access;
  return access === undefined || access === 'public' ? null : access;
}
