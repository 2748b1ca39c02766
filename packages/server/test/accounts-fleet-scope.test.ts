// Geofences and sinks narrowed to a user's orgs (issue 33): an operator of org acme sees and
// manages acme's geofences and sinks only (never beta's nor the fleet's), acme's geofences are
// evaluated for acme's devices only, and acme's sink is sent the events of acme's devices only,
// while the fleet's sink (the admin's) gets every device's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, loginAs } from './helpers/accounts.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const PASSWORD = 'correct horse battery';
type Event = { type: string; device: string; data: { geofence: { identifier: string } } };

describe.each(backends)('geofences and sinks of an org on $name', (backend) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const acmeHook = new WebhookReceiver();
  const fleetHook = new WebhookReceiver();
  const tokens: Record<string, string> = {};
  let clockMs = Date.now();
  beforeAll(async () => {
    await acmeHook.start();
    await fleetHook.start();
    server = await startTestServer(backend, {
      now: () => clockMs,
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 100,
      deliveryPollMs: 200,
      // The operators' sinks go to receivers on this host: the owner allows it (issue 45).
      allowPrivateSinks: ['127.0.0.1'],
    });
    for (const [org, uuid] of [
      ['acme', 'phone-a'],
      ['beta', 'phone-b'],
    ] as const) {
      tokens[uuid] = (await register(server, org, uuid)).accessToken;
    }
    expect(
      (await server.admin('/api/groups/some-phones', { method: 'PUT', body: { devices: ['phone-a'] } })).status,
    ).toBe(201);
    for (const [name, scope] of [
      ['acme-op', { orgs: ['acme'] }],
      ['beta-op', { orgs: ['beta'] }],
      ['group-op', { groups: ['some-phones'] }],
    ] as const) {
      const created = await server.admin('/api/users', {
        method: 'POST',
        body: { name, password: PASSWORD, role: 'operator', ...scope },
      });
      expect(created.status).toBe(201);
      clockMs += 60_000;
      cookies[name] = (await loginAs(server, name, PASSWORD)).cookie!;
    }
  });
  afterAll(async () => {
    await server.stop();
    await acmeHook.stop();
    await fleetHook.stop();
  });

  const as = (user: string, method: string, path: string, body?: unknown) =>
    asSession(server, cookies[user]!, method, path, body, { origin: server.url });
  const fence = (identifier: string, latitude: number, extra: object = {}) => ({
    identifier,
    latitude,
    longitude: latitude,
    radius: 500,
    ...extra,
  });

  it("lists, creates and deletes an org's own geofences only, naming no other org's", async () => {
    expect(await as('acme-op', 'POST', '/api/geofences', fence('depot-a', 30))).toMatchObject({
      status: 201,
      body: { identifier: 'depot-a', org: 'acme' },
    });
    expect((await as('beta-op', 'POST', '/api/geofences', fence('depot-b', 40))).status).toBe(201);
    expect((await server.admin('/api/geofences', { method: 'POST', body: fence('hq', 50) })).status).toBe(201);
    const ids = async (user: string) =>
      ((await as(user, 'GET', '/api/geofences')).body as Json[]).map((g) => g.identifier);
    expect(await ids('acme-op')).toEqual(['depot-a']);
    expect(await ids('beta-op')).toEqual(['depot-b']);
    expect(((await server.admin('/api/geofences')).body as Json[]).map((g) => [g.identifier, g.org ?? null])).toEqual([
      ['depot-a', 'acme'],
      ['depot-b', 'beta'],
      ['hq', null],
    ]);
    // beta's and the fleet's geofences are not acme's to delete or replace: nothing changes.
    for (const identifier of ['depot-b', 'hq']) {
      const gone = await as('acme-op', 'DELETE', `/api/geofences/${identifier}`);
      expect(gone).toMatchObject({ status: 404, body: { code: 'UNKNOWN_GEOFENCE' } });
      expect(JSON.stringify(gone.body)).not.toContain('beta');
    }
    // Identifiers are per org (issue 41): acme's own "depot-b" is acme's, beta's stays; the fleet's
    // (evaluated for acme's devices too) is refused.
    expect(await as('acme-op', 'POST', '/api/geofences', fence('depot-b', 31))).toMatchObject({
      status: 201,
      body: { org: 'acme' },
    });
    const replaced = await as('acme-op', 'POST', '/api/geofences', fence('hq', 31));
    expect(replaced).toMatchObject({ status: 409, body: { code: 'GEOFENCE_TAKEN' } });
    expect((await as('acme-op', 'DELETE', '/api/geofences/depot-b')).status).toBe(200);
    expect(await as('acme-op', 'POST', '/api/geofences', fence('x', 32, { org: 'beta' }))).toMatchObject({
      status: 404,
      body: { code: 'UNKNOWN_ORG' },
    });
    expect(((await server.admin('/api/geofences')).body as Json[]).map((g) => [g.identifier, g.latitude])).toEqual([
      ['depot-a', 30],
      ['depot-b', 40],
      ['hq', 50],
    ]);
    // A user limited to device groups alone manages none.
    expect(await as('group-op', 'GET', '/api/geofences')).toEqual({ status: 200, body: [] });
    expect(await as('group-op', 'POST', '/api/geofences', fence('g', 33))).toMatchObject({
      status: 403,
      body: { code: 'NO_ORG' },
    });
    // Its own it deletes.
    expect((await as('acme-op', 'POST', '/api/geofences', fence('temp-a', 34))).status).toBe(201);
    expect((await as('acme-op', 'DELETE', '/api/geofences/temp-a')).status).toBe(200);
  });

  it("sends an org's sink its devices' events only, evaluating its geofences for its devices only", async () => {
    const mine: Json = await as('acme-op', 'POST', '/api/webhooks', { url: acmeHook.url, events: ['geofence.enter'] });
    expect(mine).toMatchObject({ status: 201, body: { org: 'acme' } });
    const fleet = await server.admin('/api/webhooks', {
      method: 'POST',
      body: { url: fleetHook.url, events: ['geofence.enter'] },
    });
    expect(fleet).toMatchObject({ status: 201, body: { org: null } });
    const theirs: Json = await as('beta-op', 'POST', '/api/webhooks', {
      url: fleetHook.url,
      events: ['geofence.enter'],
    });
    expect(theirs.status).toBe(201);
    // Each sees its own org's sinks.
    for (const path of ['/api/sinks', '/api/webhooks']) {
      expect(((await as('acme-op', 'GET', path)).body as Json[]).map((s) => s.id)).toEqual([mine.body.id]);
    }
    for (const [method, path] of [
      ['GET', `/api/webhooks/${theirs.body.id}`],
      ['GET', `/api/sinks/${fleet.body.id}/dead-letters`],
      ['POST', `/api/sinks/${theirs.body.id}/replay`],
      ['DELETE', `/api/sinks/${theirs.body.id}`],
      ['DELETE', `/api/webhooks/${fleet.body.id}`],
    ] as const) {
      expect(await as('acme-op', method, path), `${method} ${path}`).toMatchObject({
        status: 404,
        body: { code: 'UNKNOWN_SINK' },
      });
    }
    expect(((await server.admin('/api/sinks')).body as Json[]).length).toBe(3);

    // phone-a (acme) enters depot-a and hq; phone-b (beta) enters depot-a's area (not its geofence:
    // acme's), then depot-b and hq.
    const at = (minute: number) => new Date(clockMs + minute * 60_000).toISOString();
    const upload = async (device: string, n: number, lat: number) => {
      const reply = await call(server, 'POST', '/api/locations', {
        token: tokens[device],
        body: { location: record(`${device}-${n}`, lat, lat, at(n)) },
      });
      expect(reply.status).toBe(200);
    };
    for (const [device, lats] of [
      ['phone-a', [10, 30, 11, 50]],
      ['phone-b', [20, 30, 21, 40, 22, 50]],
    ] as const) {
      for (const [n, lat] of lats.entries()) await upload(device, n, lat);
    }
    await fleetHook.waitFor(2 + 2 + 2); // acme's 2 and beta's 2 on the fleet's sink, beta's 2 on beta's
    await acmeHook.waitFor(2);
    const seen = (hook: WebhookReceiver) =>
      hook
        .accepted<Event>()
        .map((e) => `${e.device}:${e.data.geofence.identifier}`)
        .sort();
    expect(seen(acmeHook)).toEqual(['phone-a:depot-a', 'phone-a:hq']);
    expect(seen(fleetHook)).toEqual([
      'phone-a:depot-a',
      'phone-a:hq',
      'phone-b:depot-b',
      'phone-b:depot-b',
      'phone-b:hq',
      'phone-b:hq',
    ]);
    // Nothing else waits for acme's sink: beta's events were never queued for it.
    const sinks = (await server.admin('/api/sinks')).body as Json[];
    expect(sinks.find((s) => s.id === mine.body.id)).toMatchObject({ pending: 0, dead: 0 });
    // phone-b's own history has no depot-a: acme's geofence was never evaluated for it.
    const history = (await server.admin('/api/devices/phone-b/fleet-events')).body as Json;
    expect(JSON.stringify(history)).not.toContain('depot-a');
    expect(JSON.stringify(history)).toContain('depot-b');
  });
});
