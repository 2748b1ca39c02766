// Issue 41: the role each route needs, written down here once (from docs/accounts.md's table of
// roles), not read from the table the server enforces: a rule weakened in the server fails here.
// The table covers every route of the server's own OpenAPI document (a route added without its
// row fails, a row of a route gone fails), and is walked with real sessions of each role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/accounts.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

type Required = 'public' | 'viewer' | 'operator' | 'owner';

/**
 * docs/accounts.md: a viewer reads devices, positions, exports, the live feed, events, health,
 * geofences, sinks and share links; an operator also changes the fleet (devices' state, tokens,
 * commands, geofences, sinks and webhooks, share links); an owner also users, retention,
 * organizations, the audit trail and erasing a device's data. Public: uploads and device
 * credentials, the anchor's API (its own tokens), share links, the login, the dashboard's files,
 * /health, and /metrics (its own token).
 */
const ROLES: Record<Required, readonly string[]> = {
  viewer: [
    'GET /api/devices',
    'GET /api/devices/{id}',
    'GET /api/devices/{id}/locations',
    'GET /api/devices/{id}/commands',
    'GET /api/devices/{id}/fleet-events',
    'GET /api/devices/{id}/quarantine',
    'GET /api/devices/{id}/ledger',
    'GET /api/devices/{id}/health',
    'GET /api/devices/{id}/key',
    'GET /api/health',
    'GET /api/logs',
    'GET /api/logs/{id}',
    'GET /api/events',
    'GET /api/geofences',
    'GET /api/webhooks',
    'GET /api/webhooks/{id}',
    'GET /api/sinks',
    'GET /api/sinks/{id}/dead-letters',
    'GET /api/shares',
    'GET /api/dashboard/commands',
    'GET /api/dashboard/devices',
    'GET /api/dashboard/devices/{id}/track',
    'GET /api/dashboard/devices/{id}/trips',
    'GET /api/dashboard/devices/{id}/records',
    'GET /api/dashboard/devices/{id}/events',
    'GET /api/dashboard/devices/{id}/geofences',
    'GET /api/dashboard/devices/{id}/gaps',
    'GET /api/dashboard/devices/{id}/track-tiles/{z}/{x}/{y}',
    'POST /api/users/me/password',
  ],
  operator: [
    'POST /api/devices/{id}/block',
    'POST /api/devices/{id}/unblock',
    'POST /api/devices/{id}/tokens/revoke',
    'POST /api/devices/{id}/key',
    'DELETE /api/devices/{id}/key',
    'POST /api/devices/{id}/commands',
    'POST /api/geofences',
    'DELETE /api/geofences/{identifier}',
    'POST /api/webhooks',
    'DELETE /api/webhooks/{id}',
    'POST /api/sinks',
    'DELETE /api/sinks/{id}',
    'PATCH /api/sinks/{id}',
    'POST /api/sinks/{id}/replay',
    'POST /api/shares',
    'DELETE /api/shares/{id}',
  ],
  owner: [
    'DELETE /api/devices/{id}',
    'GET /api/orgs',
    'POST /api/orgs/{name}/ban',
    'POST /api/orgs/{name}/unban',
    'DELETE /api/orgs/{name}',
    'PUT /api/orgs/{name}/retention',
    'GET /api/retention',
    'POST /api/retention/run',
    'GET /api/audit',
    'GET /api/users',
    'POST /api/users',
    'PATCH /api/users/{name}',
    'DELETE /api/users/{name}',
    'GET /api/groups',
    'PUT /api/groups/{name}',
    'DELETE /api/groups/{name}',
    'POST /api/receipt-keys',
  ],
  public: [
    'GET /metrics',
    'GET /.well-known/waypost-receipt-keys',
    'GET /health',
    ...['POST', 'PUT', 'PATCH'].flatMap((m) => [`${m} /locations`, `${m} /api/locations`]),
    'GET /api/locations',
    'DELETE /api/locations',
    'POST /locations/{company_token}',
    'POST /api/locations/{company_token}',
    'POST /owntracks',
    'POST /overland',
    'POST /capacitor',
    'GET /osmand',
    'POST /osmand',
    'PUT /osmand',
    'POST /api/register',
    'GET /api/refresh_token',
    'POST /api/refresh_token',
    'GET /api/locations/latest',
    'GET /api/company_tokens',
    'GET /api/stats',
    ...['jwt', 'firebase', 'site'].flatMap((s) => [
      `POST /api/${s}/locations`,
      `GET /api/${s}/locations`,
      `DELETE /api/${s}/locations`,
      `POST /api/${s}/locations/{company_token}`,
      `GET /api/${s}/locations/latest`,
      `GET /api/${s}/company_tokens`,
      `GET /api/${s}/stats`,
      `GET /api/${s}/devices`,
      `DELETE /api/${s}/devices/{id}`,
    ]),
    ...['jwt', 'firebase'].flatMap((s) => [
      `POST /api/${s}/register`,
      `GET /api/${s}/refresh_token`,
      `POST /api/${s}/refresh_token`,
    ]),
    'POST /api/site/auth',
    'POST /api/site/jwt',
    'POST /api/site/locations_template',
    'POST /api/site/configure',
    'POST /auth/register',
    'POST /auth/refresh',
    'POST /auth/revoke',
    'POST /api/logs',
    'POST /api/session',
    'GET /api/session',
    'DELETE /api/session',
    'GET /api/oidc/login',
    'GET /api/oidc/callback',
    'GET /s/{token}',
    'GET /s/{token}/track',
    'GET /',
    'GET /favicon.ico',
    'GET /dashboard-config.json',
    'GET /assets/{path}',
    ...['leaflet', 'world-atlas', 'topojson-client', 'maplibre-gl', 'maplibre-gl-leaflet', 'leaflet-geoman'].map(
      (lib) => `GET /vendor/${lib}/{path}`,
    ),
    'GET /sdk/{file}',
    'GET /track',
    'GET /track/',
    'GET /track/{file}',
  ],
};
const REQUIRED = new Map<string, Required>(
  (Object.entries(ROLES) as [Required, readonly string[]][]).flatMap(([role, routes]) =>
    routes.map((route) => [route, role] as const),
  ),
);
const RANK: Record<Exclude<Required, 'public'>, number> = { viewer: 0, operator: 1, owner: 2 };
const USERS = { viewer: 'vic', operator: 'opal', owner: 'olga' } as const;
const PASSWORD = 'correct horse battery';

/** A concrete path: every parameter a name that exists nowhere (what the role gate decides needs none). */
const pathOf = (route: string): string => route.split(' ')[1]!.replace(/\{[^}]+\}/g, 'nothing-here');

describe.each(backends)('the role of every route, from the test’s own table, on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
    for (const [role, name] of Object.entries(USERS)) {
      const created = await server.admin('/api/users', { method: 'POST', body: { name, password: PASSWORD, role } });
      expect(created.status).toBe(201);
      clockMs += 60_000;
      cookies[role] = (await loginAs(server, name, PASSWORD)).cookie!;
    }
  });
  afterAll(async () => server.stop());

  /** The status of `route` for a session cookie (or nobody), and the code of a refusal; a stream is not read. */
  async function statusOf(route: string, cookie: string | null): Promise<{ status: number; code?: string }> {
    const method = route.split(' ')[0]!;
    const response = await fetch(server.url + pathOf(route), {
      method,
      // A browser's same-origin header on writes: the session's cross-origin check passes.
      headers: { origin: server.url, ...(cookie ? { cookie } : {}) },
    });
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status };
    }
    const text = await response.text();
    const code = /"code":"([A-Z_]+)"/.exec(text)?.[1];
    return { status: response.status, ...(code ? { code } : {}) };
  }

  it('has a row for every route of the OpenAPI document, and no row for a route it lacks', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(100);
    expect(
      routes.filter((route) => !REQUIRED.has(route)),
      'routes with no row in this table',
    ).toEqual([]);
    expect(
      [...REQUIRED.keys()].filter((route) => !routes.includes(route)),
      'rows of routes the server does not have',
    ).toEqual([]);
  });

  it('refuses nobody (401), and each role below the one a route needs 403 ROLE_FORBIDDEN', async () => {
    const anonymous: string[] = [];
    for (const [route, required] of REQUIRED) {
      if (required === 'public') continue;
      // 401 on every route, a write whose body is required included: the caller is checked before
      // the body is (a missing body is no 400 to someone who may not write there at all).
      const { status } = await statusOf(route, null);
      if (status !== 401) anonymous.push(`${route}: ${status}`);
      for (const role of ['viewer', 'operator'] as const) {
        if (RANK[role] >= RANK[required]) continue;
        expect(await statusOf(route, cookies[role]!), `${role}: ${route} (needs ${required})`).toEqual({
          status: 403,
          code: 'ROLE_FORBIDDEN',
        });
      }
    }
    expect(anonymous, 'routes not answering 401 to nobody').toEqual([]);
  });

  it('lets the role a route needs through the role gate', async () => {
    for (const [route, required] of REQUIRED) {
      if (required === 'public') continue;
      const { status } = await statusOf(route, cookies[required]!);
      expect([401, 403], `${required}: ${route} answered ${status}`).not.toContain(status);
    }
  });
});
