/**
 * What the audit trail keeps of each route's body (issue 41): an allow-list, not a pattern of
 * secret-looking key names (a pattern missed `current`, the user's own password). For each
 * route, by "METHOD /path" as registered:
 * - `keep`: the value is kept (a scalar, or a list of scalars; an object is marked instead);
 * - `mark`: the field is recorded as sent, its value replaced by NOT_KEPT (passwords, tokens,
 *   secrets, and an org's data: a geofence's coordinates, a sink's URL);
 * - `head`: a list's first item is kept (a command's name), the rest marked;
 * - `user`: kept only when it names an existing user (the login form's name field: a password
 *   typed there by mistake names no user and is never kept).
 * A field not listed, and every field of a route not listed, is left out: a field added to a
 * route later is never recorded in clear by default. docs/audit.md says what is kept.
 */
export type FieldRule = 'keep' | 'mark' | 'head' | 'user';

export const NOT_KEPT = '[not kept]';
export const UNKNOWN_USER = '[no such user]';

const userScopes = { role: 'keep', orgs: 'keep', groups: 'keep', password: 'mark' } as const;

export const AUDIT_FIELDS: Readonly<Record<string, Readonly<Record<string, FieldRule>>>> = {
  'POST /api/geofences': {
    identifier: 'keep',
    org: 'keep',
    radius: 'keep',
    notifyOnEntry: 'keep',
    notifyOnExit: 'keep',
    notifyOnDwell: 'keep',
    loiteringDelay: 'keep',
    latitude: 'mark',
    longitude: 'mark',
    vertices: 'mark',
    extras: 'mark',
  },
  'POST /api/webhooks': { org: 'keep', events: 'keep', url: 'mark', secret: 'mark' },
  'POST /api/sinks': { org: 'keep', kind: 'keep', events: 'keep', url: 'mark', secret: 'mark' },
  'PATCH /api/sinks/:id': { paused: 'keep' },
  'POST /api/sinks/:id/replay': { ids: 'keep' },
  'POST /api/devices/:id/commands': { command: 'head' },
  'POST /api/shares': { device: 'keep', from: 'keep', to: 'keep', expiresAt: 'keep' },
  'PUT /api/orgs/:name/retention': { days: 'keep' },
  'PUT /api/groups/:name': { devices: 'keep' },
  'POST /api/users': { name: 'keep', ...userScopes },
  'PATCH /api/users/:name': userScopes,
  'POST /api/users/me/password': { current: 'mark', password: 'mark' },
  'POST /api/session': { user: 'user', token: 'mark', password: 'mark' },
  'POST /api/site/auth': { login: 'mark', password: 'mark' },
  'POST /api/site/jwt': { org: 'keep' },
};

/** Path parameters the trail keeps in `target` (what was changed: a device, a user, a geofence). */
export const KEPT_PARAMS: readonly string[] = ['id', 'name', 'identifier'];

/** The fields of a route's body whose value the trail keeps only if they name an existing user. */
export const userFieldsOf = (route: string): string[] =>
  Object.entries(AUDIT_FIELDS[route] ?? {})
    .filter(([, rule]) => rule === 'user')
    .map(([field]) => field);
