import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, ConfigInput, LocationInput } from '@waypost/sdk';
import type { Store } from '@waypost/sdk/internal';
import { at, createMemoryStore } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

/** An engine on the doubles, not readied; give it the store of an earlier one to "reopen" it. */
const openSdk = async (store: Store = createMemoryStore()): Promise<BackgroundGeolocation> =>
  (await openedEngine({ store })).bg;

const VALID: ConfigInput = {
  http: { url: 'http://127.0.0.1:9/x', autoSync: false, params: { a: 1 } },
  persistence: { maxDaysToPersist: 3 },
};

/** [what, bad input, the key the error must name, text the message must contain] */
const BAD_CONFIGS: [string, ConfigInput, string, string][] = [
  ['a wrong type (boolean)', { http: { autoSync: 'yes' as unknown as boolean } }, 'http.autoSync', 'true or false'],
  ['a wrong type (integer as text)', { http: { timeout: '60' as unknown as number } }, 'http.timeout', 'integer'],
  ['a wrong type (header value)', { http: { headers: { a: 1 as unknown as string } } }, 'http.headers.a', 'string'],
  ['a non-integer', { http: { timeout: 1.5 } }, 'http.timeout', 'integer'],
  ['timeout 0', { http: { timeout: 0 } }, 'http.timeout', '>= 1'],
  ['a timeout beyond what a timer can wait', { http: { timeout: 2 ** 31 } }, 'http.timeout', '<= 2147483647'],
  [
    'a heartbeatInterval beyond what a timer can wait',
    { app: { heartbeatInterval: 3_000_000 } },
    'app.heartbeatInterval',
    '<= 2147483',
  ],
  ['maxBatchSize 0', { http: { maxBatchSize: 0 } }, 'http.maxBatchSize', '-1 or >= 1'],
  ['autoSyncThreshold -1', { http: { autoSyncThreshold: -1 } }, 'http.autoSyncThreshold', '>= 0'],
  ['maxDaysToPersist 0', { persistence: { maxDaysToPersist: 0 } }, 'persistence.maxDaysToPersist', '>= 1'],
  ['a method that is not POST/PUT/PATCH', { http: { method: 'GET' as 'POST' } }, 'http.method', 'POST, PUT, PATCH'],
  ['an unknown log level', { logger: { logLevel: 'LOUD' as 'INFO' } }, 'logger.logLevel', 'OFF'],
  [
    'an unknown key in a group',
    { http: { urll: 'http://a' } as ConfigInput['http'] },
    'http.urll',
    'Did you mean http.url?',
  ],
  ['an unknown top-level key', { urll: 'http://a' } as unknown as ConfigInput, 'urll', 'Did you mean url?'],
  ['a group that is not an object', { http: 5 as unknown as ConfigInput['http'] }, 'http', 'object'],
  ['an ftp:// url', { http: { url: 'ftp://example.com/x' } }, 'http.url', 'http:// or https://'],
  ['a url that is not a url', { http: { url: 'not a url' } }, 'http.url', 'http:// or https://'],
  ['a bad flat url', { url: 'ftp://example.com/x' }, 'url', 'http:// or https://'],
  [
    'a template that cannot render valid JSON (unquoted string tag)',
    { persistence: { locationTemplate: '{"ts":<%= timestamp %>}' } },
    'persistence.locationTemplate',
    'valid JSON',
  ],
  [
    'a template naming an unknown tag',
    { persistence: { locationTemplate: '{"x":"<%= altitud %>"}' } },
    'persistence.locationTemplate',
    'unknown tag',
  ],
  ['params that are not JSON', { http: { params: { n: Number.NaN } } }, 'http.params', 'JSON'],
  ['a valid change next to a bad one', { http: { batchSync: true, timeout: -5 } }, 'http.timeout', '>= 1'],
];

async function configured(store: Store): Promise<BackgroundGeolocation> {
  const bg = await openSdk(store);
  await bg.ready(VALID);
  return bg;
}

describe('bad configuration is rejected and changes nothing', () => {
  it.each(BAD_CONFIGS)('%s', async (_what, input, key, hint) => {
    const store = createMemoryStore();
    const bg = await configured(store);
    const before = await bg.getState();
    const rejection = { code: 'INVALID_CONFIG', key, message: expect.stringContaining(key) };

    await expect(bg.setConfig(input)).rejects.toMatchObject(rejection);
    await expect(bg.setConfig(input)).rejects.toThrow(hint);
    await expect(bg.ready({ ...input, reset: false })).rejects.toMatchObject(rejection);
    await expect(bg.ready(input)).rejects.toMatchObject(rejection);
    expect(await bg.getState()).toEqual(before);

    await bg.close();
    const reopened = await openSdk(store);
    expect(await reopened.getState()).toEqual(before);
  });

  it('property style: a bad assignment in config.edit or ready(fn) is rejected the same way', async () => {
    const store = createMemoryStore();
    const bg = await configured(store);
    const before = await bg.getState();
    await expect(
      bg.config.edit((c) => {
        c.http.batchSync = true;
        c.http.maxBatchSize = 0;
      }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG', key: 'http.maxBatchSize' });
    await expect(
      bg.ready((c) => {
        (c.http as unknown as Record<string, unknown>)['urll'] = 'http://a';
      }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG', key: 'http.urll', message: expect.stringContaining('http.url') });
    expect(await bg.getState()).toEqual(before);
    await bg.close();
    expect(await (await openSdk(store)).getState()).toEqual(before);
  });
});

it('the largest timeout a timer can wait is accepted and uploads succeed with it', async () => {
  const { bg, server, clock } = await engine(
    { http: { autoSync: false, timeout: 2_147_483_647 } },
    { replies: [{ status: 200, delayMs: 20 }] },
  );
  await bg.store.insertLocation(at(0));
  const syncing = bg.sync();
  await server.holding(1);
  await clock.advance(20);
  expect(await syncing).toHaveLength(1);
  expect(server.requests.map((r) => r.answered)).toEqual([200]);
});

describe('bad location input is rejected with INVALID_LOCATION and nothing is queued', () => {
  const BAD_LOCATIONS: [string, unknown, string][] = [
    ['NaN latitude', { latitude: Number.NaN, longitude: 1 }, 'coords.latitude'],
    ['latitude 91', { latitude: 91, longitude: 1 }, 'coords.latitude'],
    ['longitude -181', { latitude: 1, longitude: -181 }, 'coords.longitude'],
    ['missing coords', {}, 'coords.latitude'],
    ['missing longitude', { coords: { latitude: 1 } }, 'coords.longitude'],
    ['a latitude as text', { coords: { latitude: '45', longitude: 1 } }, 'coords.latitude'],
    ['a string', 'somewhere', 'input'],
    ['null', null, 'input'],
    ['timestamp "garbage"', { ...at(0), timestamp: 'garbage' }, 'timestamp'],
    ['a negative accuracy', { ...at(0), accuracy: -7 }, 'coords.accuracy'],
    ['Infinity longitude', { latitude: 1, longitude: Number.POSITIVE_INFINITY }, 'coords.longitude'],
  ];

  it.each(BAD_LOCATIONS)('%s', async (_what, input, key) => {
    const bg = await openSdk();
    await bg.ready({ http: { autoSync: false } });
    await bg.start();
    await bg.store.insertLocation(at(0));
    const error = { code: 'INVALID_LOCATION', key, message: expect.stringContaining(key) };
    await expect(bg.recordLocation(input as LocationInput)).rejects.toMatchObject(error);
    await expect(bg.store.insertLocation(input as LocationInput)).rejects.toMatchObject(error);
    expect(await bg.getCount()).toBe(1);
  });

  it('the boundaries themselves are valid locations', async () => {
    const bg = await openSdk();
    await bg.ready({});
    for (const input of [
      { latitude: 90, longitude: 180 },
      { latitude: -90, longitude: -180 },
    ]) {
      await bg.store.insertLocation(input);
    }
    expect(await bg.getCount()).toBe(2);
  });
});
