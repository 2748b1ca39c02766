// Every list a limited user reads filters by their scope before its limit (issue 41): with
// `limit=1`, and with more of another org's newer rows than a default page holds, a user limited
// to acme (by org, and again by a device group) gets acme's own rows, and nothing of beta's, on
// every list route; no page answers empty because another org's rows came first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, loginAs } from './helpers/accounts.js';
import { register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';
import { declaredRules } from './helpers/route-access.js';

const ROUTE_RULES = await declaredRules();

const PASSWORD = 'correct horse battery';
/** More than a list's default page (100). */
const FOREIGN_ROWS = 101;

/**
 * Each list route, and where each item names the device or the org it is of (this test's table).
 * An org's settings (`byOrg`) are an org's, not a device group's: a user limited by group sees none.
 */
const LISTS: { path: string; items: (body: Json) => Json[]; owner: (item: Json) => string; byOrg?: true }[] = [
  { path: '/api/shares', items: (b) => b, owner: (i) => i.device },
  { path: '/api/devices', items: (b) => b, owner: (i) => i.id },
  { path: '/api/dashboard/devices', items: (b) => b, owner: (i) => i.id },
  { path: '/api/health', items: (b) => b.devices, owner: (i) => i.id },
  { path: '/api/logs', items: (b) => b, owner: (i) => i.deviceId },
  { path: '/api/geofences', items: (b) => b, owner: (i) => i.org, byOrg: true },
  { path: '/api/sinks', items: (b) => b, owner: (i) => i.org, byOrg: true },
  { path: '/api/webhooks', items: (b) => b, owner: (i) => i.org, byOrg: true },
];
/** What acme's items are named by: its device, or the org itself. */
const ACME = new Set(['phone-a', 'acme']);

describe('the list routes this test walks', () => {
  it('are every filtered list of the route rules (the live feed is a stream, not a list)', () => {
    const lists = Object.entries(ROUTE_RULES)
      .filter(([route, rule]) => route.startsWith('GET ') && !route.includes(':') && rule.scope === 'filtered')
      .map(([route]) => route.slice(4))
      .filter((path) => path !== '/api/events');
    expect(LISTS.map((list) => list.path).sort()).toEqual(lists.sort());
  });
});

const CASES = backends.flatMap((backend) =>
  (['orgs', 'groups'] as const).map((scope) => ({ name: backend.name, backend, scope })),
);

describe.each(CASES)(
  'lists filtered by scope before their limit on $name, a user limited by $scope',
  ({ backend, scope }) => {
    let server: TestServer;
    let clockMs = Date.UTC(2026, 0, 1);
    let cookie = '';
    beforeAll(async () => {
      server = await startTestServer(backend, { now: () => clockMs });
      // Registered devices upload their logs with their tokens (never written without one, issue 41).
      const tokens: Record<string, string> = {
        'phone-a': (await register(server, 'acme', 'phone-a')).accessToken,
        'phone-b': (await register(server, 'beta', 'phone-b')).accessToken,
      };
      if (scope === 'groups') {
        const group = await server.admin('/api/groups/acme-fleet', { method: 'PUT', body: { devices: ['phone-a'] } });
        expect(group.status).toBe(201);
      }
      const limits = scope === 'orgs' ? { orgs: ['acme'] } : { groups: ['acme-fleet'] };
      const user = { name: 'acme-viewer', password: PASSWORD, role: 'viewer', ...limits };
      expect((await server.admin('/api/users', { method: 'POST', body: user })).status).toBe(201);
      cookie = (await loginAs(server, 'acme-viewer', PASSWORD)).cookie!;
      // acme's rows first (the oldest), then more of beta's than a page holds, each newer.
      const expiresAt = new Date(clockMs + 86_400_000 * 30).toISOString();
      const rows = (device: string, org: string, n: number) => [
        ...Array.from({ length: n }, () => ['/api/shares', { device, expiresAt }] as const),
        ['/api/geofences', { identifier: `fence-${org}`, latitude: 1, longitude: 2, radius: 100, org }] as const,
        ['/api/webhooks', { url: `https://${org}.example/in`, org }] as const,
      ];
      const log = async (deviceId: string) => {
        const form = new FormData();
        form.append('log', new Blob([`log of ${deviceId}`]), 'log.txt');
        form.append('device_id', deviceId);
        const headers = { authorization: `Bearer ${tokens[deviceId]}` };
        expect((await fetch(`${server.url}/api/logs`, { method: 'POST', body: form, headers })).status).toBe(201);
      };
      await log('phone-a');
      for (const [path, body] of [...rows('phone-a', 'acme', 1), ...rows('phone-b', 'beta', FOREIGN_ROWS)]) {
        clockMs += 1000;
        expect((await server.admin(path, { method: 'POST', body })).status).toBe(201);
      }
      for (let n = 0; n < FOREIGN_ROWS; n++) await log('phone-b');
    });
    afterAll(async () => server.stop());

    it.each(LISTS)("answers $path with acme's rows only, with limit=1 and with the default page", async (list) => {
      for (const query of ['?limit=1', '']) {
        const answer = await asSession(server, cookie, 'GET', `${list.path}${query}`);
        expect(answer.status).toBe(200);
        const owners = list.items(answer.body).map(list.owner);
        if (scope === 'orgs' || !list.byOrg) expect(owners.length, `${list.path}${query}`).toBeGreaterThan(0);
        expect(
          owners.filter((owner) => !ACME.has(owner)),
          `${list.path}${query}`,
        ).toEqual([]);
      }
    });
  },
);
