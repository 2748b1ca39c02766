// Geofence identifiers are unique per organization (issue 41), on both databases: an operator of
// acme names a geofence "depot" although beta has one (before, 409 GEOFENCE_TAKEN confirmed beta's
// name), each org sees, replaces and deletes its own, the admin's list and the events name the org,
// and an identifier of the fleet's (evaluated for every device) stays refused to an org.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, loginAs } from './helpers/accounts.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const PASSWORD = 'correct horse battery';
// A clock near the real one (device tokens verify), moved by hand.
let clockMs = Math.floor(Date.now() / 1000) * 1000;

describe.each(backends)('geofence identifiers per org on $name', (backend) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
    tokens.acme = (await register(server, 'acme', 'phone-a')).accessToken;
    tokens.beta = (await register(server, 'beta', 'phone-b')).accessToken;
    for (const org of ['acme', 'beta']) {
      const user = { name: `${org}-op`, password: PASSWORD, role: 'operator', orgs: [org] };
      expect((await server.admin('/api/users', { method: 'POST', body: user })).status).toBe(201);
      clockMs += 60_000;
      cookies[org] = (await loginAs(server, `${org}-op`, PASSWORD)).cookie!;
    }
  });
  afterAll(async () => server.stop());

  const as = (org: string, method: string, path: string, body?: unknown) =>
    asSession(server, cookies[org]!, method, path, body, { origin: server.url });
  const fence = (identifier: string, latitude: number) => ({ identifier, latitude, longitude: latitude, radius: 500 });
  const listed = async (org: string | null) =>
    ((org === null ? await server.admin('/api/geofences') : await as(org, 'GET', '/api/geofences')).body as Json[]).map(
      (g) => [g.identifier, g.org ?? null, g.latitude],
    );

  it("lets two orgs name a geofence alike, confirming neither's name to the other", async () => {
    expect((await as('beta', 'POST', '/api/geofences', fence('depot', 40))).status).toBe(201);
    const mine = await as('acme', 'POST', '/api/geofences', fence('depot', 30));
    expect(mine).toMatchObject({ status: 201, body: { identifier: 'depot', org: 'acme' } });
    // Replacing its own changes nothing of beta's.
    expect((await as('acme', 'POST', '/api/geofences', fence('depot', 31))).status).toBe(201);
    expect(await listed('acme')).toEqual([['depot', 'acme', 31]]);
    expect(await listed('beta')).toEqual([['depot', 'beta', 40]]);
    expect(await listed(null)).toEqual([
      ['depot', 'acme', 31],
      ['depot', 'beta', 40],
    ]);
  });

  it('names the org in the events of an org geofence, each evaluated for its own devices', async () => {
    clockMs += 60_000;
    const at = new Date(clockMs).toISOString();
    for (const [org, latitude] of [
      ['acme', 31],
      ['beta', 40],
    ] as const) {
      const location = record(`${org}-in`, latitude, latitude, at);
      expect((await call(server, 'POST', '/api/locations', { token: tokens[org], body: { location } })).status).toBe(
        200,
      );
    }
    for (const [device, org] of [
      ['phone-a', 'acme'],
      ['phone-b', 'beta'],
    ] as const) {
      const history = (await server.admin(`/api/devices/${device}/fleet-events`)).body as Json;
      const enters = (history.events as Json[]).filter((e) => e.type === 'geofence.enter');
      expect(enters.map((e) => [e.data.geofence.identifier, e.data.geofence.org])).toEqual([['depot', org]]);
    }
  });

  it("deletes an org's own; the admin names whose when several are named alike", async () => {
    expect(await as('acme', 'DELETE', '/api/geofences/depot')).toMatchObject({
      status: 200,
      body: { deleted: 'depot', org: 'acme' },
    });
    expect(await listed(null)).toEqual([['depot', 'beta', 40]]);
    expect((await as('acme', 'DELETE', '/api/geofences/depot')).status).toBe(404);
    expect((await as('acme', 'POST', '/api/geofences', fence('depot', 32))).status).toBe(201);
    const ambiguous = await server.admin('/api/geofences/depot', { method: 'DELETE' });
    expect(ambiguous).toMatchObject({ status: 409, body: { code: 'GEOFENCE_AMBIGUOUS' } });
    expect((await server.admin('/api/geofences/depot?org=beta', { method: 'DELETE' })).status).toBe(200);
    expect(await listed(null)).toEqual([['depot', 'acme', 32]]);
  });

  it("refuses an org the identifier of a fleet geofence (evaluated for its devices too), and the fleet an org's", async () => {
    expect((await server.admin('/api/geofences', { method: 'POST', body: fence('hq', 50) })).status).toBe(201);
    expect(await as('acme', 'POST', '/api/geofences', fence('hq', 51))).toMatchObject({
      status: 409,
      body: { code: 'GEOFENCE_TAKEN' },
    });
    const fleet = await server.admin('/api/geofences', { method: 'POST', body: fence('depot', 52) });
    expect(fleet).toMatchObject({ status: 409, body: { code: 'GEOFENCE_TAKEN' } });
    expect(await listed(null)).toEqual([
      ['depot', 'acme', 32],
      ['hq', null, 50],
    ]);
  });
});
