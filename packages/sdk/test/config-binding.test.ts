import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, State } from '@waypost/sdk';
import type { Store } from '@waypost/sdk/internal';
import { at, createMemoryStore, type ScriptedServer } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';

/** An engine on the doubles, not readied; give it the store of an earlier one to "reopen" it. */
const openSdk = async (store: Store = createMemoryStore()): Promise<BackgroundGeolocation> =>
  (await openedEngine({ store })).bg;

/**
 * A store (what a database file is to a reopen) in which an earlier SDK saved a configuration: a
 * url, autoSync off, maxDaysToPersist 3.
 */
async function storeWithSavedConfig(): Promise<Store> {
  const store = createMemoryStore();
  const first = await openSdk(store);
  await first.ready({ http: { url: 'http://127.0.0.1:9/x', autoSync: false }, persistence: { maxDaysToPersist: 3 } });
  await first.close();
  return store;
}

/** Inserts one fixed location, syncs it, and returns the body with the uuid blanked. */
async function uploadedShape(bg: BackgroundGeolocation, server: ScriptedServer): Promise<unknown> {
  const before = server.requests.length;
  await bg.store.insertLocation({ ...at(0), timestamp: '2026-01-01T00:00:00.000Z' });
  await bg.sync();
  // Each store's uuids and numbering epoch are its own.
  return JSON.parse(
    server.requests[before]!.text.replace(/"uuid":"[^"]+"/g, '"uuid":"U"').replace(
      /"sequence_epoch":"[^"]+"/g,
      '"sequence_epoch":"E"',
    ),
  );
}

describe('both binding styles give identical results', () => {
  it('ready(config) and ready(c => ...) produce the same state and the same upload', async () => {
    const { bg: objectStyle, server } = await openedEngine();
    const { bg: propertyStyle, server: propertyServer } = await openedEngine();
    const a = await objectStyle.ready({
      http: { url: server.url, autoSync: false, rootProperty: 'data', params: { d: 1 }, headers: { 'X-K': 'v' } },
      persistence: { extras: { e: true } },
      logger: { logLevel: 'DEBUG' },
    });
    const b = await propertyStyle.ready((c) => {
      c.http.url = server.url;
      c.http.autoSync = false;
      c.http.rootProperty = 'data';
      c.http.params = { d: 1 };
      c.http.headers = { 'X-K': 'v' };
      c.persistence.extras = { e: true };
      c.logger.logLevel = 'DEBUG';
    });
    expect(b).toEqual(a);
    expect(await uploadedShape(propertyStyle, propertyServer)).toEqual(await uploadedShape(objectStyle, server));
  });

  it('setConfig and config.edit produce the same state', async () => {
    const { bg: objectStyle, server } = await openedEngine();
    const { bg: propertyStyle, server: propertyServer } = await openedEngine();
    await objectStyle.ready({ http: { url: server.url } });
    await propertyStyle.ready({ http: { url: server.url } });
    const a = await objectStyle.setConfig({
      http: { autoSync: false, batchSync: true, maxBatchSize: 5, timeout: 1234 },
    });
    const b = await propertyStyle.config.edit((c) => {
      c.http.autoSync = false;
      c.http.batchSync = true;
      c.http.maxBatchSize = 5;
      c.http.timeout = 1234;
    });
    expect(b).toEqual(a);
    expect(await propertyStyle.getState()).toEqual(await objectStyle.getState());
    expect(propertyStyle.config.current.http.timeout).toBe(1234);
    expect(await uploadedShape(propertyStyle, propertyServer)).toEqual(await uploadedShape(objectStyle, server));
  });

  it('sync and store.sync (and the other store.* reads) behave the same', async () => {
    const { bg, server } = await openedEngine();
    await bg.ready({ http: { url: server.url, autoSync: false } });
    const a = await bg.store.insertLocation(at(0));
    expect(await bg.store.getCount()).toBe(1);
    expect(await bg.store.getLocations()).toEqual(await bg.getLocations());
    expect((await bg.store.sync()).map((l) => l.uuid)).toEqual([a.uuid]);
    const b = await bg.store.insertLocation(at(1));
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([b.uuid]);
    await bg.store.insertLocation(at(2));
    const c = await bg.store.insertLocation(at(3));
    expect(await bg.store.destroyLocation(c.uuid)).toBe(true);
    expect(await bg.store.destroyLocations()).toBe(1);
    expect(await bg.store.getCount()).toBe(0);
  });
});

describe('configuration persisted in the database', () => {
  it('reopening the same file restores it: getState() shows it before ready()', async () => {
    const store = createMemoryStore(); // what a database file is to a reopen
    const first = await openSdk(store);
    const saved = await first.ready({
      http: { url: 'http://127.0.0.1:9/x', autoSync: false, params: { a: 1 } },
      persistence: { maxDaysToPersist: 3 },
      logger: { logLevel: 'DEBUG' },
      distanceFilter: 10,
    });
    expect(saved.ignored).toEqual({ 'geolocation.distanceFilter': 10 });
    await first.close();
    const second = await openSdk(store);
    expect(await second.getState()).toEqual(saved);
  });

  it('ready(config) replaces the saved configuration (reset) unless reset: false', async () => {
    const store = await storeWithSavedConfig();

    const kept = await openSdk(store);
    const merged = await kept.ready({ reset: false, http: { batchSync: true } });
    expect(merged.http).toMatchObject({ url: 'http://127.0.0.1:9/x', autoSync: false, batchSync: true });
    expect(merged.persistence.maxDaysToPersist).toBe(3);
    await kept.close();

    const replaced = await openSdk(store);
    const reset = await replaced.ready({ http: { batchSync: true } });
    expect(reset.http).toMatchObject({ autoSync: true, batchSync: true });
    expect(reset.http.url).toBeUndefined();
    expect(reset.persistence.maxDaysToPersist).toBe(1);
  });

  it('property style ready(c => { c.reset = false; ... }) keeps the saved configuration too', async () => {
    const store = await storeWithSavedConfig();

    const second = await openSdk(store);
    const state = await second.ready((c) => {
      c.reset = false;
      c.http.batchSync = true;
    });
    expect(state.http).toMatchObject({ url: 'http://127.0.0.1:9/x', autoSync: false, batchSync: true });
    expect(state.persistence.maxDaysToPersist).toBe(3);
  });

  it('setConfig changes are persisted too', async () => {
    const store = createMemoryStore(); // what a database file is to a reopen
    const first = await openSdk(store);
    await first.ready({});
    const state = await first.setConfig({ http: { timeout: 777 } });
    await first.close();
    const second = await openSdk(store);
    expect(await second.getState()).toEqual(state);
  });
});

describe('anchor flat keys', () => {
  it('map onto their groups', async () => {
    const bg = await openSdk();
    const template = '{"id":"<%= uuid %>"}';
    const state: State = await bg.ready({
      url: 'http://127.0.0.1:9/x',
      method: 'PUT',
      httpRootProperty: 'data',
      httpTimeout: 5000,
      autoSync: false,
      autoSyncThreshold: 4,
      batchSync: true,
      maxBatchSize: 10,
      params: { p: 1 },
      headers: { 'X-A': 'b' },
      disableAutoSyncOnCellular: true,
      locationTemplate: template,
      maxDaysToPersist: 7,
      maxRecordsToPersist: 100,
      extras: { e: 1 },
      heartbeatInterval: 30,
      stopOnTerminate: false,
      logLevel: 'DEBUG',
      logMaxDays: 5,
    });
    expect(state.http).toMatchObject({
      url: 'http://127.0.0.1:9/x',
      method: 'PUT',
      rootProperty: 'data',
      timeout: 5000,
      autoSync: false,
      autoSyncThreshold: 4,
      batchSync: true,
      maxBatchSize: 10,
      params: { p: 1 },
      headers: { 'X-A': 'b' },
      disableAutoSyncOnCellular: true,
    });
    expect(state.persistence).toMatchObject({
      locationTemplate: template,
      maxDaysToPersist: 7,
      maxRecordsToPersist: 100,
      extras: { e: 1 },
    });
    expect(state.app).toMatchObject({ heartbeatInterval: 30, stopOnTerminate: false });
    expect(state.logger).toEqual({ logLevel: 4, logMaxDays: 5 });
  });

  it('flat keys and groups upload the same way', async () => {
    const { bg: flat, server } = await openedEngine();
    const { bg: grouped, server: groupedServer } = await openedEngine();
    await flat.ready({ url: server.url, httpRootProperty: 'data', autoSync: false, params: { p: 1 } });
    await grouped.ready({ http: { url: groupedServer.url, rootProperty: 'data', autoSync: false, params: { p: 1 } } });
    expect(await flat.getState()).toEqual(await grouped.getState());
    const shape = await uploadedShape(flat, server);
    expect(shape).toEqual(await uploadedShape(grouped, groupedServer));
    expect(shape).toEqual(expect.objectContaining({ data: expect.objectContaining({ uuid: 'U' }), p: 1 }));
  });

  it('ignored anchor keys are accepted, kept in state.ignored, and noted in the log', async () => {
    const bg = await openSdk();
    const state = await bg.ready({ desiredAccuracy: -1, distanceFilter: 10, debug: true, http: { autoSync: false } });
    expect(state.ignored).toEqual({
      'geolocation.desiredAccuracy': -1,
      'geolocation.distanceFilter': 10,
      'logger.debug': true,
    });
    expect(state.http.autoSync).toBe(false);
    const log = await bg.logger.getLog();
    expect(log).toContain('desiredAccuracy');
    expect(log).toContain('distanceFilter');
  });
});
