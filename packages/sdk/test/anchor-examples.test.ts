import { describe, expect, it } from 'vitest';
import {
  DesiredAccuracy,
  LogLevel,
  PersistMode,
  type Config as AnchorConfig,
} from '@transistorsoft/background-geolocation-types';
import type { ConfigInput } from '@waypost/sdk';
import { at } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';

/**
 * The anchor's documented example configurations, as its README, migration guide, example apps
 * and type tests print them (the server URL swapped for a local one). Each must be accepted by
 * ready() as it is, and the HTTP behaviour must be what the configuration says.
 * (The URL is the kit's scripted server's.)
 */
const EXAMPLES: [string, (url: string) => ConfigInput][] = [
  [
    'Config API docs (flat v4 ready)',
    (url) => ({
      desiredAccuracy: -1,
      distanceFilter: 10,
      stopOnTerminate: false,
      startOnBoot: true,
      url,
      params: { user_id: 123 },
      headers: { 'my-auth-token': 'secret-key' },
    }),
  ],
  [
    'migration guide, before (flat)',
    (url) => ({
      desiredAccuracy: -1,
      distanceFilter: 10,
      stopOnTerminate: false,
      startOnBoot: true,
      url,
      headers: { Authorization: 'Bearer TOKEN' },
      logLevel: 4,
      debug: true,
      autoSync: true,
      batchSync: false,
    }),
  ],
  [
    'migration guide, after (compound)',
    (url) => {
      const config: AnchorConfig = {
        geolocation: { desiredAccuracy: DesiredAccuracy.High, distanceFilter: 10 },
        app: { stopOnTerminate: false, startOnBoot: true },
        http: { url, headers: { Authorization: 'Bearer TOKEN' }, autoSync: true, batchSync: false },
        logger: { logLevel: LogLevel.Debug, debug: true },
      };
      return config;
    },
  ],
  [
    'type tests (config-surface.ts)',
    (url) => {
      const config: AnchorConfig = {
        logger: { logLevel: LogLevel.Verbose },
        geolocation: { desiredAccuracy: DesiredAccuracy.High, distanceFilter: 10 },
        http: { url, autoSync: true },
        persistence: { persistMode: PersistMode.All, maxDaysToPersist: 7 },
        app: { stopOnTerminate: false, startOnBoot: true },
        activity: { disableStopDetection: false },
      };
      return config;
    },
  ],
  [
    'HelloWorld example app',
    (url) => {
      const config: AnchorConfig = {
        logger: { debug: true, logLevel: LogLevel.Verbose },
        geolocation: { desiredAccuracy: DesiredAccuracy.High, distanceFilter: 10, stopTimeout: 5 },
        http: { url, autoSync: true },
        app: { stopOnTerminate: false, heartbeatInterval: 60, startOnBoot: true, enableHeadless: true },
      };
      return config;
    },
  ],
  [
    'Advanced example app',
    (url) => {
      const config: AnchorConfig = {
        reset: false,
        geolocation: { distanceFilter: 10, desiredAccuracy: DesiredAccuracy.High },
        http: { url, autoSync: true },
        persistence: { maxDaysToPersist: 14 },
        app: { stopOnTerminate: false, startOnBoot: true, enableHeadless: true },
        logger: { debug: true, logLevel: LogLevel.Verbose },
      };
      return config;
    },
  ],
];

describe("the anchor's documented example configurations", () => {
  it.each(EXAMPLES)('%s: accepted, and each recorded location is uploaded as configured', async (_name, example) => {
    const { bg, server: receiver } = await openedEngine();
    const config = example(receiver.url);
    const state = await bg.ready(config);
    expect(state.http.url).toBe(receiver.url);
    await bg.start();
    const location = await bg.recordLocation(at(0));
    // autoSync (the anchor's default, or as the example says): one request per location.
    await bg.idle();
    expect(receiver.requests).toHaveLength(1);
    const request = receiver.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.body).toMatchObject({ location: { uuid: location.uuid } });
    const headers = (config.http?.headers ?? config.headers ?? {}) as Record<string, string>;
    for (const [name, value] of Object.entries(headers)) expect(request.headers[name.toLowerCase()]).toBe(value);
    const params = (config.http?.params ?? config.params ?? {}) as Record<string, unknown>;
    expect(request.body).toMatchObject(params);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    const log = await bg.logger.getLog();
    expect(log).not.toMatch(/unknown configuration key/);
  });

  it('a batchSync example with autoSyncThreshold holds records until the threshold, then sends one array', async () => {
    const { bg, server: receiver } = await openedEngine();
    const config: AnchorConfig = {
      http: { url: receiver.url, autoSync: true, batchSync: true, autoSyncThreshold: 3, rootProperty: 'data' },
      geolocation: { desiredAccuracy: DesiredAccuracy.Medium, distanceFilter: 50 },
      persistence: { persistMode: PersistMode.Location },
    };
    await bg.ready(config);
    await bg.start();
    await bg.recordLocation(at(0));
    await bg.recordLocation(at(1));
    await bg.idle();
    expect(receiver.requests).toHaveLength(0);
    await bg.recordLocation(at(2));
    await bg.idle();
    expect(receiver.requests).toHaveLength(1);
    expect((receiver.requests[0]!.body as { data: unknown[] }).data).toHaveLength(3);
  });
});
