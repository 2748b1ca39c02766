import { describe, expect, it } from 'vitest';
import { DUMMY_TOKEN } from '@waypost/sdk/internal';
import { at, type RecordedRequest, type Reply } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';

interface Seen {
  path: string;
  authorization: string | undefined;
  body: string;
}

interface DemoApi {
  /** The origin it answers for: what an app passes as the registration URL. */
  url: string;
  answer(request: RecordedRequest): Reply;
}

let demos = 0;

/**
 * The anchor demo server's device API at an origin of its own: POST /api/register hands out a
 * numbered token, /api/locations answers what the script says (406 for DUMMY_TOKEN, as the demo
 * server does), /api/refresh_token refreshes. `gone`: nobody listens there (connection refused).
 */
function demoServer(options: { register?: number[]; locations?: number[]; gone?: boolean } = {}): DemoApi {
  const registerStatuses = [...(options.register ?? [])];
  const locationStatuses = [...(options.locations ?? [])];
  let issued = 0;
  const json = (status: number, value: unknown): Reply => ({ status, json: value });
  return {
    url: `http://demo-${++demos}.waypost.test`,
    answer(request) {
      if (options.gone) return { reset: true, code: 'ECONNREFUSED' };
      if (request.url === '/api/register') {
        const status = registerStatuses.shift() ?? 200;
        if (status !== 200) return json(status, { error: 'no' });
        issued++;
        return json(200, { accessToken: `access-${issued}`, refreshToken: `refresh-${issued}`, expires: -1 });
      }
      if (request.url === '/api/refresh_token') {
        issued++;
        return json(200, { accessToken: `access-${issued}`, refreshToken: `refresh-${issued}`, expires: -1 });
      }
      if (request.url === '/api/locations') {
        if (request.headers['authorization'] === `Bearer ${DUMMY_TOKEN}`) return json(406, {});
        return json(locationStatuses.shift() ?? 200, { success: true });
      }
      return json(404, {});
    },
  };
}

const DEVICE = { uuid: 'dev-1', model: 'Pi 5', manufacturer: 'RPi', platform: 'linux', version: '6.1' };

/**
 * An engine for DEVICE (not readied) whose scripted server is these demo servers, told apart by
 * origin; `seen(demo)` is what reached one of them, in order.
 */
async function deviceWith(...apis: DemoApi[]) {
  const { bg, server } = await openedEngine({ device: DEVICE });
  const originOf = (request: RecordedRequest) => new URL(request.href).origin;
  server.setDefault((request) => {
    const api = apis.find((a) => a.url === originOf(request));
    return api ? api.answer(request) : { status: 404, json: {} };
  });
  const seen = (api: DemoApi): Seen[] =>
    server.requests
      .filter((r) => originOf(r) === api.url)
      .map((r) => ({ path: r.url, authorization: r.headers['authorization'], body: r.text }));
  return { bg, server, seen };
}

describe('findOrCreateTransistorAuthorizationToken', () => {
  it('registers with org and device info, returns the token, and finds it again without a request', async () => {
    const server = demoServer();
    const { bg, seen } = await deviceWith(server);
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    expect(token).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', expires: -1, url: server.url });
    expect(seen(server)).toHaveLength(1);
    expect(JSON.parse(seen(server)[0]!.body)).toEqual({
      org: 'acme',
      username: 'alice',
      uuid: 'dev-1',
      model: 'Pi 5',
      manufacturer: 'RPi',
      version: '6.1',
      platform: 'linux',
      framework: 'waypost',
    });
    expect(await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url)).toEqual(token);
    expect(seen(server)).toHaveLength(1);
    await bg.destroyTransistorAuthorizationToken(server.url);
    expect((await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url)).accessToken).toBe(
      'access-2',
    );
  });

  it('the token configures uploads to /api/locations as a JWT', async () => {
    const server = demoServer();
    const { bg, seen } = await deviceWith(server);
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    await bg.ready({ transistorAuthorizationToken: token, http: { autoSync: false } });
    await bg.insertLocation(at(0));
    await bg.sync();
    expect(seen(server)[1]).toMatchObject({ path: '/api/locations', authorization: 'Bearer access-1' });
  });

  it('finds the tokens a refresh rotated since registration, not the revoked ones saved with it', async () => {
    const server = demoServer({ locations: [401] });
    const { bg, seen } = await deviceWith(server);
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    await bg.ready({ transistorAuthorizationToken: token, http: { autoSync: false } });
    await bg.insertLocation(at(0));
    await bg.sync();
    expect(seen(server).map((s) => s.path)).toEqual([
      '/api/register',
      '/api/locations',
      '/api/refresh_token',
      '/api/locations',
    ]);
    // The app's next launch asks again, as the anchor's examples do, and readies with the answer.
    const again = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    expect(again).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(seen(server).filter((s) => s.path === '/api/register')).toHaveLength(1);
  });

  it('a refusal (403) rejects with REGISTRATION_FAILED; an unreachable server yields the anchor dummy token', async () => {
    const refused = demoServer({ register: [403] });
    const gone = demoServer({ gone: true });
    const { bg, seen } = await deviceWith(refused, gone);
    await expect(bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', refused.url)).rejects.toMatchObject({
      code: 'REGISTRATION_FAILED',
    });
    expect(await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', gone.url)).toEqual({
      accessToken: DUMMY_TOKEN,
      refreshToken: DUMMY_TOKEN,
      expires: -1,
      url: gone.url,
    });
    await expect(bg.findOrCreateTransistorAuthorizationToken('', 'alice', gone.url)).rejects.toMatchObject({
      code: 'REGISTRATION_FAILED',
      key: 'orgname',
    });
    expect(seen(refused).map((s) => s.path)).toEqual(['/api/register']);
    expect(seen(gone).map((s) => s.path)).toEqual(['/api/register']); // an empty org is refused before any request
  });
});

describe('406: register again', () => {
  it('a dummy token gets 406; the SDK registers again, applies the new token and delivers the queue', async () => {
    const server = demoServer({ register: [500] });
    const { bg, seen } = await deviceWith(server);
    const dummy = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    expect(dummy.accessToken).toBe(DUMMY_TOKEN);
    await bg.ready({ transistorAuthorizationToken: dummy });
    await bg.insertLocation(at(0));
    // Registering again runs beside the automatic upload that got the 406: idle() waits for it and
    // for the upload that follows it.
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(seen(server).map((s) => [s.path, s.authorization])).toEqual([
      ['/api/register', undefined],
      ['/api/locations', `Bearer ${DUMMY_TOKEN}`],
      ['/api/register', undefined],
      ['/api/locations', 'Bearer access-1'],
    ]);
    expect((await bg.getState()).authorization).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(await bg.logger.getLog()).not.toContain('access-1');
  });

  it('registers again once per failure streak, and not at all for a server it did not register with', async () => {
    const server = demoServer({ locations: [406, 406, 406] });
    const { bg, seen } = await deviceWith(server);
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    await bg.ready({ transistorAuthorizationToken: token, http: { autoSync: false } });
    await bg.insertLocation(at(0));
    await bg.sync().catch(() => undefined);
    // The retry after registering again runs on its own; idle() waits for it.
    await bg.idle();
    expect(seen(server)).toHaveLength(4);
    await bg.sync().catch(() => undefined);
    expect(await bg.getCount()).toBe(1);
    await bg.close(); // waits for any registering still running
    expect(seen(server).map((s) => s.path)).toEqual([
      '/api/register',
      '/api/locations',
      '/api/register',
      '/api/locations',
      '/api/locations',
    ]);

    const other = demoServer({ locations: [406] });
    const plain = await deviceWith(other);
    await plain.bg.ready({ http: { url: `${other.url}/api/locations`, autoSync: false } });
    await plain.bg.insertLocation(at(0));
    await plain.bg.sync().catch(() => undefined);
    await plain.bg.close();
    expect(plain.seen(other).map((s) => s.path)).toEqual(['/api/locations']);
  });
});
