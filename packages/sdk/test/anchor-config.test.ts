import { describe, expect, it } from 'vitest';
import { LogLevel } from '@transistorsoft/background-geolocation-types';
import type { BackgroundGeolocation, ConfigInput } from '@waypost/sdk';
import { at, createMemoryStore, type EngineOptions } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';

import { FULL_V4, FULL_V5 } from './fixtures/anchor-configs.js';

/** An engine on the doubles, not readied. */
const openSdk = async (options: EngineOptions = {}): Promise<BackgroundGeolocation> => (await openedEngine(options)).bg;

describe('every anchor configuration key is accepted', () => {
  it('a fully populated v5 grouped Config: acted-on keys applied, the others kept, listed and noted once', async () => {
    const bg = await openSdk();
    const state = await bg.ready(FULL_V5);
    expect(state.http).toMatchObject({ batchSync: true, maxBatchSize: 50, timeout: 30_000 });
    expect(state.persistence).toMatchObject({ maxDaysToPersist: 14, locationsOrderDirection: 'DESC', persistMode: 2 });
    expect(state.ignored).toMatchObject({
      'persistence.disableProviderChangeRecord': true,
      'persistence.timestampFormat': 'iso',
      'app.enableHeadless': true,
      'app.preventSuspend': true,
      'app.notification': { title: 'Tracking', text: 'on', priority: 1, sticky: true, actions: ['a'] },
      'app.schedule': ['1-7 09:00-17:00'],
      'app.backgroundPermissionRationale': { title: 'Allow?', message: 'Please', positiveAction: 'OK' },
      'logger.debug': true,
      'geolocation.desiredAccuracy': -1,
      'geolocation.distanceFilter': 10,
      'geolocation.locationUpdateInterval': 1000,
      'geolocation.activityType': 2,
      'geolocation.locationAuthorizationRequest': 'Always',
      'geolocation.filter': { policy: 1, useKalman: true, kalmanProfile: 2, trackingAccuracyThreshold: 100 },
      'activity.triggerActivities': ['in_vehicle', 'on_bicycle'],
      'activity.stopDetectionDelay': 1,
    });
    expect(Object.keys(state.ignored)).toHaveLength(38);
    expect(state.geolocation).toMatchObject({ geofenceInitialTriggerEntry: true, stationaryRadius: 50 });
    await bg.setConfig({ geolocation: { distanceFilter: 20 } });
    const log = await bg.logger.getLog();
    expect(log.match(/geolocation\.distanceFilter is an anchor option/g)).toHaveLength(1);
    expect(log).toContain('activity.motionTriggerDelay is an anchor option');
  });

  it('the v4 flat form: every key accepted, mapped to the same names as the grouped form', async () => {
    const bg = await openSdk();
    const state = await bg.ready(FULL_V4);
    expect(state.http).toMatchObject({ rootProperty: 'data', timeout: 60_000, headers: { 'X-A': 'b' } });
    expect(state.logger.logLevel).toBe(LogLevel.Verbose);
    expect(state.authorization).toMatchObject({ strategy: 'SAS', accessToken: 'S' });
    expect(state.ignored).toMatchObject({
      'geolocation.desiredAccuracy': -1,
      'geolocation.speedJumpFilter': 300,
      'geolocation.desiredOdometerAccuracy': 100,
      'app.notificationTitle': 'Title',
      'app.foregroundService': true,
      'activity.stopDetectionDelay': 0,
      'activity.triggerActivities': 'in_vehicle, on_bicycle',
      'app.backgroundPermissionRationale': { title: 't' },
    });
    const grouped = await openSdk();
    await grouped.ready({ geolocation: { desiredAccuracy: -1 } });
    const flat = await openSdk();
    await flat.ready({ desiredAccuracy: -1 });
    expect(await flat.getState()).toEqual(await grouped.getState());
  });

  it.each([
    ['jwt', 'Bearer T'],
    ['JWT', 'Bearer T'],
    ['sas', 'T'],
    ['SAS', 'T'],
  ])('authorization.strategy %s sends Authorization: %s', async (strategy, header) => {
    const { bg, server } = await openedEngine();
    await bg.ready({ http: { url: server.url, autoSync: false }, authorization: { strategy, accessToken: 'T' } });
    await bg.insertLocation(at(0));
    await bg.sync();
    expect(server.requests[0]!.headers.authorization).toBe(header);
  });

  it('enums in the anchor spellings and numeric constants', async () => {
    const bg = await openSdk();
    const state = await bg.ready({
      logger: { logLevel: LogLevel.Debug },
      http: { method: 'put' },
      persistence: { locationsOrderDirection: -1 },
    });
    expect(state.logger.logLevel).toBe(LogLevel.Debug);
    expect(state.http.method).toBe('PUT');
    expect(state.persistence.locationsOrderDirection).toBe('DESC');
  });

  const BAD: [string, unknown, string][] = [
    ['a kept boolean given as text', { app: { enableHeadless: 'yes' } }, 'app.enableHeadless'],
    ['a kept enum out of its values', { geolocation: { desiredAccuracy: 7 } }, 'geolocation.desiredAccuracy'],
    ['a flat kept key of the wrong kind', { notificationTitle: 5 }, 'notificationTitle'],
    ['an unknown key in the activity group', { activity: { stopDetectionDelai: 1 } }, 'activity.stopDetectionDelai'],
    ['an unknown trigger activity', { activity: { triggerActivities: ['flying'] } }, 'activity.triggerActivities'],
    ['an unknown strategy', { authorization: { strategy: 'basic' } }, 'authorization.strategy'],
    ['a log level beyond 5', { logger: { logLevel: 6 } }, 'logger.logLevel'],
    [
      'an order that is neither 1 nor -1',
      { persistence: { locationsOrderDirection: 0 } },
      'persistence.locationsOrderDirection',
    ],
    [
      'a token whose url is not a URL string',
      { transistorAuthorizationToken: { accessToken: 'a', refreshToken: 'r', expires: -1, url: 5 } },
      'transistorAuthorizationToken.url',
    ],
  ];
  it.each(BAD)('still rejected, naming the key: %s', async (_what, input, key) => {
    const bg = await openSdk();
    await bg.ready({ http: { autoSync: false } });
    const before = await bg.getState();
    await expect(bg.setConfig(input as ConfigInput)).rejects.toMatchObject({ code: 'INVALID_CONFIG', key });
    expect(await bg.getState()).toEqual(before);
  });
});

it('a configuration saved with kept keys by their flat names reopens with them under their v5 names', async () => {
  const store = createMemoryStore();
  await store.kv.set(
    'config',
    JSON.stringify({ config: { http: { autoSync: false } }, ignored: { distanceFilter: 10 } }),
  );
  const bg = await openSdk({ store });
  const state = await bg.getState();
  expect(state.ignored).toEqual({ 'geolocation.distanceFilter': 10 });
  expect(state.geolocation).toMatchObject({ distanceFilter: 10 });
  expect(state.http.autoSync).toBe(false);
});

describe('transistorAuthorizationToken', () => {
  it('points uploads at {url}/api/locations with the token, refreshed at {url}/api/refresh_token', async () => {
    const { bg, server } = await openedEngine({
      replies: [
        { status: 401, json: {} },
        { status: 200, json: { accessToken: 'A2', refreshToken: 'R2', expires: -1 } },
      ],
    });
    const origin = new URL(server.url).origin;
    const state = await bg.ready({
      http: { url: 'http://127.0.0.1:9/ignored', autoSync: false },
      transistorAuthorizationToken: { accessToken: 'A1', refreshToken: 'R1', expires: -1, url: `${origin}/` },
    });
    expect(state.http.url).toBe(`${origin}/api/locations`);
    await bg.insertLocation(at(0));
    await bg.sync();
    expect(server.requests).toHaveLength(3);
    const [upload, refresh, retry] = server.requests;
    expect(upload).toMatchObject({ url: '/api/locations', headers: { authorization: 'Bearer A1' } });
    expect(refresh).toMatchObject({ url: '/api/refresh_token', text: 'refresh_token=R1' });
    expect(retry).toMatchObject({ url: '/api/locations', headers: { authorization: 'Bearer A2' } });
    expect(await bg.getCount()).toBe(0);
  });
});

describe("a token without url (the anchor's v4 types declare it optional)", () => {
  it("is the anchor demo server's, as the anchor applies it", async () => {
    const bg = await openSdk();
    const state = await bg.ready({
      http: { autoSync: false },
      transistorAuthorizationToken: { accessToken: 'A1', refreshToken: 'R1', expires: -1 },
    });
    expect(state.http.url).toBe('https://tracker.transistorsoft.com/api/locations');
    expect(bg.config.current.authorization).toMatchObject({
      strategy: 'JWT',
      accessToken: 'A1',
      refreshUrl: 'https://tracker.transistorsoft.com/api/refresh_token',
    });
  });
});

describe("values the anchor's v4 types allow and Waypost does not act on", () => {
  it('are refused when applied, naming the key: OPTIONS as method, a non-string header, an unknown order', async () => {
    const bg = await openSdk();
    for (const [config, key] of [
      [{ method: 'OPTIONS' }, 'method'],
      [{ headers: { 'X-Count': 1 } }, 'headers.X-Count'],
      [{ locationsOrderDirection: 'sideways' }, 'locationsOrderDirection'],
    ] as const) {
      await expect(bg.ready(config as never)).rejects.toMatchObject({ code: 'INVALID_CONFIG', key });
    }
    await bg.ready({ locationsOrderDirection: 'desc' });
    expect(bg.config.current.persistence.locationsOrderDirection).toBe('DESC');
  });
});
