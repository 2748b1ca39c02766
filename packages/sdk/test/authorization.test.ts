import { describe, expect, it } from 'vitest';
import type { AuthorizationEvent, ConfigInput, Store } from '@waypost/sdk';
import { ManualClock, createMemoryStore } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';
import { tokenService, type TokenService } from './support/token-service.js';
import {
  parseTokenResponse,
  refreshRetryAt,
  REFRESH_BACKOFF_BASE_MS,
  REFRESH_BACKOFF_MAX_MS,
} from '@waypost/sdk/internal';

const here = { latitude: 45.5, longitude: -73.6, accuracy: 5 };

function authConfig(
  server: TokenService,
  authorization: Record<string, unknown> = {},
  http: Record<string, unknown> = {},
): ConfigInput {
  return {
    http: {
      url: `${server.base}/locations`,
      autoSync: false,
      headers: { 'X-Api-Key': 'key-1', 'Content-Type': 'text/plain' },
      ...http,
    },
    authorization: {
      strategy: 'JWT',
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      refreshUrl: `${server.base}/refresh`,
      refreshPayload: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
      ...authorization,
    },
  };
}

async function setup(options: { validToken?: string | null; clock?: ManualClock; store?: Store } = {}) {
  const engine = await openedEngine({
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.store ? { store: options.store } : {}),
  });
  const server = tokenService(engine.server, options.validToken === undefined ? 'access-0' : options.validToken);
  const { bg, clock } = engine;
  const auth: AuthorizationEvent[] = [];
  bg.onAuthorization((event) => auth.push(event));
  return { server, bg, auth, clock, engine };
}

describe('authorization header (spec 5.1-5.2)', () => {
  it('JWT: "Bearer <token>" is injected and merged with http.headers; uploads stay JSON', async () => {
    const { server, bg } = await setup();
    await bg.ready(authConfig(server));
    await bg.store.insertLocation(here);
    await bg.sync();
    expect(server.uploads[0]!.headers).toMatchObject({
      authorization: 'Bearer access-0',
      'x-api-key': 'key-1',
      'content-type': 'application/json',
    });
  });

  it('SAS: the raw token is the header value', async () => {
    const { server, bg } = await setup({ validToken: null });
    await bg.ready(authConfig(server, { strategy: 'SAS', accessToken: 'SharedAccessSignature sig=abc' }));
    await bg.store.insertLocation(here);
    await bg.sync();
    expect(server.uploads[0]!.headers.authorization).toBe('SharedAccessSignature sig=abc');
  });
});

describe('token refresh (spec 5.3, DESIGN 4)', () => {
  it('a 401 refreshes with a form-urlencoded POST and retries the upload once with the new token', async () => {
    const { server, bg, auth, clock } = await setup({ validToken: 'access-1' });
    await bg.ready(authConfig(server));
    await bg.store.insertLocation(here);
    expect(await bg.sync()).toHaveLength(1);

    expect(server.uploads.map((u) => u.headers.authorization)).toEqual(['Bearer access-0', 'Bearer access-1']);
    expect(server.refreshes).toHaveLength(1);
    const refresh = server.refreshes[0]!;
    expect(refresh.text).toBe('grant_type=refresh_token&refresh_token=refresh-0');
    // http.headers minus their content-type, then the form content type, then refreshHeaders.
    expect(refresh.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      'x-api-key': 'key-1',
      authorization: 'Bearer access-0',
    });
    expect(auth).toEqual([
      expect.objectContaining({
        status: 200,
        success: true,
        error: null,
        response: expect.objectContaining({ access_token: 'access-1' }),
      }),
    ]);
    const state = await bg.getState();
    expect(state.authorization).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(state.authorization!.expires).toBe(clock.now() / 1000 + 3600);
    expect(state.authorizationStatus).toBe('ok');
  });

  it('refreshHeaders {} sends no header of its own; {accessToken} is replaced in custom ones', async () => {
    const { server, bg } = await setup({ validToken: 'access-1' });
    await bg.ready(authConfig(server, { refreshHeaders: {} }, { headers: {} }));
    await bg.store.insertLocation(here);
    await bg.sync();
    expect(server.refreshes[0]!.headers.authorization).toBeUndefined();

    server.validToken = 'access-2';
    await bg.setConfig({ authorization: { refreshHeaders: { 'X-Old-Token': 'was {accessToken}' } } });
    await bg.store.insertLocation(here);
    await bg.sync();
    expect(server.refreshes[1]!.headers['x-old-token']).toBe('was access-1');
  });

  it('an expired token is refreshed before the upload, so the upload never meets a 401', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
    const { server, bg } = await setup({ validToken: 'access-1', clock });
    await bg.ready(authConfig(server, { expires: clock.now() / 1000 - 10 }));
    await bg.store.insertLocation(here);
    await bg.sync();
    expect(server.uploads.map((u) => u.headers.authorization)).toEqual(['Bearer access-1']);
    expect(server.refreshes).toHaveLength(1);
  });

  it('expires in milliseconds is understood as well', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
    const { server, bg } = await setup({ validToken: 'access-0', clock });
    await bg.ready(authConfig(server, { expires: clock.now() + 3_600_000 }));
    await bg.store.insertLocation(here);
    await bg.sync();
    expect(server.refreshes).toHaveLength(0);
  });

  it('refreshed tokens survive close and reopen', async () => {
    const store = createMemoryStore();
    const { server, bg, engine } = await setup({ validToken: 'access-1', store });
    await bg.ready(authConfig(server));
    await bg.store.insertLocation(here);
    await bg.sync();
    await engine.close();
    const { bg: reopened } = await openedEngine({ store });
    expect((await reopened.getState()).authorization).toMatchObject({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
    });
  });

  it('reads the Keycloak shape end to end (refresh_expires_in is not the access token lifetime)', async () => {
    const { server, bg, clock } = await setup({ validToken: 'access-1' });
    server.refreshReply = () => ({
      status: 200,
      json: {
        access_token: 'access-1',
        expires_in: 300,
        refresh_expires_in: 1800,
        refresh_token: 'kc-refresh',
        token_type: 'Bearer',
      },
    });
    await bg.ready(authConfig(server));
    await bg.store.insertLocation(here);
    await bg.sync();
    const authorization = (await bg.getState()).authorization!;
    expect(authorization.refreshToken).toBe('kc-refresh');
    expect(authorization.expires).toBe(clock.now() / 1000 + 300);
  });

  it('tokens and Authorization headers never appear in the SDK log', async () => {
    const { server, bg } = await setup({ validToken: 'access-1' });
    await bg.ready({ ...authConfig(server), logger: { logLevel: 'VERBOSE' } });
    await bg.store.insertLocation(here);
    await bg.sync();
    const log = await bg.logger.getLog();
    expect(log).toContain('refreshed');
    for (const secret of ['access-0', 'access-1', 'refresh-0', 'refresh-1', 'key-1']) expect(log).not.toContain(secret);
  });
});

describe('token response shapes: a fixed key priority', () => {
  const now = Date.UTC(2026, 10, 22, 12);
  const nowSeconds = now / 1000;
  it.each([
    [
      'OAuth2 standard',
      { access_token: 'A', refresh_token: 'R', expires_in: 3600, token_type: 'Bearer' },
      { accessToken: 'A', refreshToken: 'R', expires: nowSeconds + 3600 },
    ],
    [
      'Keycloak',
      { access_token: 'A', expires_in: 300, refresh_expires_in: 1800, refresh_token: 'R' },
      { accessToken: 'A', refreshToken: 'R', expires: nowSeconds + 300 },
    ],
    [
      'Google (id_token beside access_token)',
      { access_token: 'A', id_token: 'I', expires_in: 3599 },
      { accessToken: 'A', refreshToken: null, expires: nowSeconds + 3599 },
    ],
    [
      'nested token object',
      { token: { access_token: 'A', expires_at: nowSeconds + 60 } },
      { accessToken: 'A', refreshToken: null, expires: nowSeconds + 60 },
    ],
    [
      'camelCase',
      { accessToken: 'A', refreshToken: 'R', expiresAt: new Date(now + 120_000).toISOString() },
      { accessToken: 'A', refreshToken: 'R', expires: nowSeconds + 120 },
    ],
    [
      'expires_at in milliseconds',
      { access_token: 'A', expires_at: now + 5000 },
      { accessToken: 'A', refreshToken: null, expires: nowSeconds + 5 },
    ],
    ['id_token only', { id_token: 'I' }, { accessToken: 'I', refreshToken: null, expires: -1 }],
  ])('%s', (_name, body, expected) => {
    expect(parseTokenResponse(body, now)).toEqual(expected);
  });

  it('an answer without an access token is no token set', () => {
    expect(parseTokenResponse({ refresh_token: 'R' }, now)).toBeNull();
    expect(parseTokenResponse('A', now)).toBeNull();
  });
});

describe('a failing refresh never loops', () => {
  it('backoff doubles from the base to the cap, with jitter between half and the full delay', () => {
    expect(refreshRetryAt(1, 0, 1)).toBe(REFRESH_BACKOFF_BASE_MS);
    expect(refreshRetryAt(1, 0, 0)).toBe(REFRESH_BACKOFF_BASE_MS / 2);
    expect(refreshRetryAt(3, 0, 1)).toBe(REFRESH_BACKOFF_BASE_MS * 4);
    expect(refreshRetryAt(40, 0, 1)).toBe(REFRESH_BACKOFF_MAX_MS);
    expect(refreshRetryAt(40, 0, 0)).toBe(REFRESH_BACKOFF_MAX_MS / 2);
  });

  it('a refused refresh token (401) leaves a reported auth-failed state until the configuration changes', async () => {
    const { server, bg, auth } = await setup({ validToken: 'never' });
    server.refreshReply = () => ({ status: 401, json: { error: 'invalid_grant' } });
    await bg.ready(authConfig(server));
    await bg.store.insertLocation(here);
    for (let i = 0; i < 5; i++) await bg.sync();
    expect(server.refreshes).toHaveLength(1);
    expect(auth).toEqual([
      expect.objectContaining({ status: 401, success: false, error: expect.stringContaining('401') }),
    ]);
    expect((await bg.getState()).authorizationStatus).toBe('failed');
    expect(await bg.getCount()).toBe(1);

    await bg.setConfig({ authorization: { refreshToken: 'refresh-new' } });
    expect((await bg.getState()).authorizationStatus).toBe('ok');
    await bg.sync();
    expect(server.refreshes).toHaveLength(2);
    expect(server.refreshes[1]!.text).toContain('refresh_token=refresh-new');
  });

  async function simulateHour(refreshReply: TokenService['refreshReply']) {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
    const { server, bg } = await setup({ validToken: 'never-valid', clock });
    server.refreshReply = refreshReply;
    server.acceptIssuedTokens = false;
    await bg.ready({ ...authConfig(server, {}, { autoSync: true }), app: { heartbeatInterval: 60 } });
    await bg.start();
    for (let minute = 0; minute < 60; minute++) {
      const before = server.uploads.length;
      await bg.recordLocation(here);
      await bg.idle();
      expect(server.uploads.length, 'the upload of a new location').toBeGreaterThan(before);
      const beforeHeartbeat = server.uploads.length;
      await clock.advance(60_000);
      expect(server.uploads.length, 'the heartbeat upload').toBeGreaterThan(beforeHeartbeat);
    }
    expect(await bg.getCount()).toBe(60);
    return { server, bg };
  }

  it('an hour of heartbeats and locations against a server answering 401, refresh failing (503): a few dozen refreshes at most', async () => {
    const { server, bg } = await simulateHour(() => ({ status: 503, json: { error: 'unavailable' } }));
    expect(server.uploads.length).toBeGreaterThanOrEqual(120);
    expect(server.refreshes.length).toBeGreaterThanOrEqual(3);
    expect(server.refreshes.length).toBeLessThanOrEqual(24);
    expect((await bg.getState()).authorizationStatus).toBe('backoff');
  });

  it('an hour against a server that answers 401 even to freshly refreshed tokens: still bounded', async () => {
    let n = 0;
    const { server } = await simulateHour(() => ({ status: 200, json: { access_token: `fresh-${++n}` } }));
    expect(server.refreshes.length).toBeGreaterThanOrEqual(3);
    expect(server.refreshes.length).toBeLessThanOrEqual(24);
  });
});
