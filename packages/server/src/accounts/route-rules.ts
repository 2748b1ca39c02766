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

// Every rule names its scope (no default): a route added here has its scope decided, not assumed.
const r = (role: Role, scope: ScopeRule): RouteRule => ({ role, scope });
const read = (scope: ScopeRule) => r('viewer', scope);
const write = (scope: ScopeRule) => r('operator', scope);
const owner = r('owner', 'none');

/**
 * Every operator route's rule (issue 33), by "METHOD /path" as registered: reads need a viewer,
 * fleet writes (devices, commands, geofences, sinks, share links) an operator, and users,
 * retention, orgs, the audit trail and erasing a device's data an owner. The admin token and an
 * admin session pass every rule. A route calling requireAdmin with no rule here is refused to
 * every user, and test/accounts-routes.test.ts fails for any route of the app that is neither here
 * nor in PUBLIC_ROUTES.
 */
export const ROUTE_RULES: Readonly<Record<string, RouteRule>> = {
  'GET /api/devices': read('filtered'),
  'GET /api/devices/:id': read('device'),
  'DELETE /api/devices/:id': r('owner', 'device'),
  'POST /api/devices/:id/block': write('device'),
  'POST /api/devices/:id/unblock': write('device'),
  'POST /api/devices/:id/tokens/revoke': write('device'),
  'GET /api/devices/:id/key': read('device'),
  'POST /api/devices/:id/key': write('device'),
  'DELETE /api/devices/:id/key': write('device'),
  'GET /api/devices/:id/commands': read('device'),
  'POST /api/devices/:id/commands': write('device'),
  'GET /api/devices/:id/fleet-events': read('device'),
  'GET /api/devices/:id/health': read('device'),
  'GET /api/devices/:id/ledger': read('device'),
  'GET /api/devices/:id/locations': read('device'),
  'GET /api/devices/:id/quarantine': read('device'),
  'GET /api/dashboard/devices': read('filtered'),
  'GET /api/dashboard/commands': read('global'),
  'GET /api/dashboard/devices/:id/events': read('device'),
  'GET /api/dashboard/devices/:id/gaps': read('device'),
  'GET /api/dashboard/devices/:id/geofences': read('device'),
  'GET /api/dashboard/devices/:id/records': read('device'),
  'GET /api/dashboard/devices/:id/track': read('device'),
  'GET /api/dashboard/devices/:id/track-tiles/:z/:x/:y': read('device'),
  'GET /api/dashboard/devices/:id/trips': read('device'),
  'GET /api/events': read('filtered'),
  'GET /api/health': read('filtered'),
  'GET /api/logs': read('filtered'),
  'GET /api/logs/:id': read('filtered'),
  'GET /api/geofences': read('filtered'),
  'POST /api/geofences': write('filtered'),
  'DELETE /api/geofences/:identifier': write('filtered'),
  'GET /api/sinks': read('filtered'),
  'DELETE /api/sinks/:id': write('filtered'),
  'POST /api/sinks': write('filtered'),
  'PATCH /api/sinks/:id': write('filtered'),
  'GET /api/sinks/:id/dead-letters': read('filtered'),
  'POST /api/sinks/:id/replay': write('filtered'),
  'GET /api/webhooks': read('filtered'),
  'GET /api/webhooks/:id': read('filtered'),
  'POST /api/webhooks': write('filtered'),
  'DELETE /api/webhooks/:id': write('filtered'),
  'GET /api/shares': read('filtered'),
  'POST /api/shares': write('filtered'),
  'DELETE /api/shares/:id': write('filtered'),
  'GET /api/orgs': owner,
  'DELETE /api/orgs/:name': owner,
  'POST /api/orgs/:name/ban': owner,
  'POST /api/orgs/:name/unban': owner,
  'PUT /api/orgs/:name/retention': owner,
  'GET /api/retention': owner,
  'POST /api/retention/run': owner,
  'GET /api/audit': owner,
  'GET /api/groups': owner,
  'PUT /api/groups/:name': owner,
  'DELETE /api/groups/:name': owner,
  'GET /api/users': owner,
  'POST /api/users': owner,
  'PATCH /api/users/:name': owner,
  'DELETE /api/users/:name': owner,
  'POST /api/users/me/password': read('self'),
};

/**
 * Routes that are no operator's: uploads and device credentials (device tokens), the anchor's API
 * (its org and login tokens), share links (their capability token), the login itself, the
 * dashboard's files and the monitors' endpoints. Users' sessions get nothing more from them.
 */
export const PUBLIC_ROUTES: readonly RegExp[] = [
  /^(GET|POST|PUT|PATCH|DELETE) \/api\/(firebase|jwt|site)\//,
  /^(GET|POST|PUT|PATCH|DELETE) \/api\/(locations|register|refresh_token|company_tokens|stats)(\/|$)/,
  /^POST \/api\/logs$/,
  /^(GET|POST|DELETE) \/api\/session$/,
  /^GET \/api\/oidc\/(login|callback)$/,
  /^(GET|POST|PUT|PATCH|DELETE) \/(locations|devices|company_tokens|stats)(\/|$)/,
  /^(GET|POST|PUT) \/(osmand|overland|owntracks|capacitor|traccar)(\/|$)/,
  /^POST \/auth\/(register|refresh|revoke)$/,
  /^GET \/(s\/|sdk\/|assets\/|vendor\/|tiles\/|track|favicon\.ico$|openapi\.json$|dashboard-config\.json$|health$|metrics$|$)/,
];

export const ruleOf = (method: string, url: string | undefined): RouteRule | null =>
  url === undefined ? null : (ROUTE_RULES[`${method === 'HEAD' ? 'GET' : method} ${url}`] ?? null);

export const isPublicRoute = (route: string): boolean => PUBLIC_ROUTES.some((pattern) => pattern.test(route));
