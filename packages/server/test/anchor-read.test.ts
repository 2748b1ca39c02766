import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgToken, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const READ_ROUTES = ['/locations', '/locations/latest', '/devices', '/company_tokens', '/stats'];
const uuidsOf = (rows: Json[]) => rows.map((r: { uuid: string }) => r.uuid);

describe.each(backends)("the anchor's read API on $name", (backend) => {
  let server: TestServer;
  let a1: string;
  let acme: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    a1 = (await register(server, 'acme', 'a1')).accessToken;
    const a2 = (await register(server, 'acme', 'a2')).accessToken;
    const b1 = (await register(server, 'beta', 'b1')).accessToken;
    const put = (token: string, uuid: string, day: number, hour = 10) =>
      call(server, 'POST', '/api/locations', {
        token,
        body: { location: record(uuid, 45 + day / 100, -73, `2024-05-0${day}T${hour}:00:00.000Z`) },
      });
    await put(a1, 'a1-day1', 1);
    await put(a1, 'a1-day2', 2);
    await put(a1, 'a1-day3-late', 3, 23);
    await put(a2, 'a2-day2', 2);
    await put(b1, 'b1-day2', 2);
    acme = await orgToken(server, 'acme');
  });
  afterAll(async () => server.stop());

  const get = (path: string, token?: string) => call(server, 'GET', path, token === undefined ? {} : { token });

  it('refuses every read route 401 {"status": 401} without a token or with a wrong one, on every mount', async () => {
    for (const prefix of ['/api', '/api/jwt', '/api/site']) {
      for (const route of READ_ROUTES) {
        if (prefix === '/api' && route === '/devices') continue; // shared with the admin API: see below
        for (const token of [undefined, '!!!', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln']) {
          expect(await get(prefix + route, token)).toMatchObject({ status: 401, body: { status: 401 } });
        }
      }
    }
  });

  it("gives a device its own records only, newest first, flattened the anchor's way", async () => {
    const rows = (await get('/api/jwt/locations', a1)).body;
    expect(uuidsOf(rows)).toEqual(['a1-day3-late', 'a1-day2', 'a1-day1']);
    expect(rows[1]).toMatchObject({
      uuid: 'a1-day2',
      device_id: 'a1',
      company_token: 'acme',
      company_id: expect.any(Number),
      device_model: 'iPhone10,4(x86_64)',
      latitude: 45.02,
      longitude: -73,
      accuracy: 5,
      speed: 1,
      altitude: 500,
      is_moving: true,
      activity_type: 'walking',
      activity_confidence: 100,
      battery_level: 0.5,
      battery_is_charging: false,
      timestamp: '2024-05-02T10:00:00.000Z',
      recorded_at: '2024-05-02T10:00:00.000Z',
      created_at: expect.any(String),
    });
    expect(rows[1]).not.toHaveProperty('coords');
    // Another device of the same org is not its business.
    expect((await get('/api/jwt/locations?device_id=a2', a1)).body).toEqual([]);
    expect((await get('/api/jwt/locations/latest', a1)).body).toMatchObject({ uuid: 'a1-day3-late' });
    expect((await get('/api/jwt/locations/latest?device_id=a2', a1)).body).toEqual({});
    expect((await get('/api/jwt/devices', a1)).body.map((d: { id: string }) => d.id)).toEqual(['a1']);
  });

  it('narrows by device_id, start_date..end_date (a bare end date covers its whole day) and limit', async () => {
    const range = await get('/api/site/locations?start_date=2024-05-02&end_date=2024-05-03', acme);
    expect(uuidsOf(range.body).sort()).toEqual(['a1-day2', 'a1-day3-late', 'a2-day2']);
    expect(uuidsOf((await get('/api/site/locations?device_id=a2', acme)).body)).toEqual(['a2-day2']);
    expect(uuidsOf((await get('/api/site/locations?device_id=&limit=1', acme)).body)).toEqual(['a1-day3-late']);
    expect(await get('/api/site/locations?limit=0', acme)).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETER' },
    });
    expect(await get('/api/site/locations?start_date=soon', acme)).toMatchObject({ status: 400 });
  });

  it("gives an org's token its org, and the admin everything", async () => {
    expect((await get('/api/site/devices', acme)).body.map((d: { id: string }) => d.id).sort()).toEqual(['a1', 'a2']);
    expect(uuidsOf((await get('/api/site/locations', acme)).body)).not.toContain('b1-day2');
    expect((await get('/api/site/company_tokens', acme)).body).toEqual([
      { id: expect.any(Number), company_token: 'acme' },
    ]);
    expect((await get('/api/jwt/company_tokens', a1)).body).toEqual([
      { id: expect.any(Number), company_token: 'acme' },
    ]);
    expect((await get('/api/site/stats', acme)).body).toEqual({
      minDate: expect.any(String),
      maxDate: expect.any(String),
      minRecordedDate: '2024-05-01T10:00:00.000Z',
      maxRecordedDate: '2024-05-03T23:00:00.000Z',
      total: 4,
    });
    const admin = server.adminToken;
    expect((await get('/api/jwt/devices', admin)).body.map((d: { id: string }) => d.id).sort()).toEqual([
      'a1',
      'a2',
      'b1',
    ]);
    expect((await get('/api/stats', admin)).body.total).toBe(5);
    const orgs = (await get('/api/company_tokens', admin)).body as { id: number; company_token: string }[];
    expect(orgs.map((o) => o.company_token)).toEqual(['acme', 'beta']);
    const beta = orgs.find((o) => o.company_token === 'beta')!;
    expect((await get(`/api/jwt/devices?company_id=${beta.id}`, admin)).body.map((d: { id: string }) => d.id)).toEqual([
      'b1',
    ]);
  });

  it("answers the shared GET /api/devices in Waypost's shape to the admin token and the anchor's to anchor tokens", async () => {
    const waypost = await get('/api/devices', server.adminToken);
    expect(waypost.body[0]).toHaveProperty('lastPosition');
    expect(waypost.body[0]).not.toHaveProperty('company_token');
    const anchor = await get('/api/devices', acme);
    expect(anchor.body.map((d: { company_token: string }) => d.company_token)).toEqual(['acme', 'acme']);
    expect((await get('/api/devices', a1)).body).toEqual([expect.objectContaining({ id: 'a1', device_id: 'a1' })]);
    expect((await get('/api/devices')).status).toBe(401);
  });

  it('logs the admin in (/api/site/auth) and issues org tokens to the admin only (/api/site/jwt)', async () => {
    const login = await call(server, 'POST', '/api/site/auth', {
      body: { login: 'admin', password: server.adminToken },
    });
    expect(login.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', org: 'admin' });
    expect((await get('/api/site/devices', login.body.access_token)).body).toHaveLength(3);
    expect((await call(server, 'POST', '/api/site/auth', { body: { login: 'admin', password: 'guess' } })).status).toBe(
      401,
    );
    expect((await call(server, 'POST', '/api/site/jwt', { body: { org: 'acme' } })).status).toBe(401);
    expect((await call(server, 'POST', '/api/site/jwt', { token: a1, body: { org: 'acme' } })).status).toBe(401);
    expect(
      (await call(server, 'POST', '/api/site/jwt', { token: server.adminToken, body: { org: 'nope' } })).body,
    ).toMatchObject({
      error: 'Org not found',
    });
    // An org token reads; it cannot upload or use the admin API.
    expect(
      (await call(server, 'POST', '/api/locations', { token: acme, body: { location: record('o'), device_id: 'a1' } }))
        .status,
    ).toBe(403);
    expect((await get('/api/devices/a1', acme)).status).toBe(403);
  });

  it('keeps the two stubs SDK developers test against', async () => {
    const template = await call(server, 'POST', '/api/site/locations_template', { body: { lat: 1 } });
    expect(template.status).toBe(200);
    expect(template.body).toEqual({ success: true });
    expect(template.headers.get('retry-after')).toBe('5');
    const configure = await call(server, 'POST', '/api/site/configure', { body: {} });
    expect(configure.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String) });
  });

  it('deletes records in scope only, and refuses the admin deleting everything unconstrained', async () => {
    const mine = await call(server, 'DELETE', '/api/jwt/locations?start_date=2024-05-01&end_date=2024-05-01', {
      token: a1,
    });
    expect(mine.body).toEqual({ success: true, deleted: 1 });
    expect(uuidsOf((await get('/api/site/locations', acme)).body).sort()).toEqual([
      'a1-day2',
      'a1-day3-late',
      'a2-day2',
    ]);
    expect((await server.admin('/api/devices/a1')).body.records).toBe(2);
    expect(await call(server, 'DELETE', '/api/locations', { token: server.adminToken })).toMatchObject({
      status: 400,
      body: { code: 'MISSING_CONSTRAINTS' },
    });
    // A device another org owns is not there for acme: nothing deleted.
    expect((await call(server, 'DELETE', '/api/site/devices/b1', { token: acme })).body).toEqual({
      success: true,
      deleted: 0,
    });
    expect((await server.admin('/api/devices/b1')).body.status).toBe('active');
  });
});
