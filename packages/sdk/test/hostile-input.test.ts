import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, JsonObject, RemoteCommandEvent } from '@waypost/sdk';
import { MAX_JSON_DEPTH } from '@waypost/sdk/internal';
import { at } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

/** An engine opened on the doubles, not readied. */
const openSdk = async (): Promise<BackgroundGeolocation> => (await openedEngine()).bg;

/** An object nested `depth` levels deep: { a: { a: ... } }. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** The text of a reply whose command list is nested `depth` arrays deep (built without recursion). */
const deepCommandsText = (depth: number) => `{"background_geolocation":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('no raw exception escapes the public API', () => {
  it('a reply whose command list is nested 100k deep: sync() still resolves with what it delivered', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } });
    server.script({ status: 200, text: deepCommandsText(100_000) });
    const commands: RemoteCommandEvent[] = [];
    bg.onRemoteCommand((event) => commands.push(event));
    const location = await bg.store.insertLocation(at(0));
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([location.uuid]);
    expect(await bg.getCount()).toBe(0);
    expect(commands).toEqual([
      expect.objectContaining({ command: '(unreadable)', ok: false, error: expect.stringContaining('nested') }),
    ]);
  });

  it('a reply with deeply nested setConfig arguments is refused as a command, the upload stands', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } });
    server.script({
      status: 200,
      json: { background_geolocation: [['setConfig', { http: { params: nested(200) } }]] },
    });
    const commands: RemoteCommandEvent[] = [];
    bg.onRemoteCommand((event) => commands.push(event));
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toHaveLength(1);
    expect(commands).toEqual([expect.objectContaining({ ok: false })]);
    expect((await bg.getState()).http.params).toEqual({});
  });

  it.each<[string, unknown]>([
    ['timestamp 9e15', { ...at(0), timestamp: 9e15 }],
    ['timestamp -1', { ...at(0), timestamp: -1 }],
    ['timestamp as a huge string', { ...at(0), timestamp: '2026-01-01'.repeat(100_000) }],
    ['an invalid Date', { ...at(0), timestamp: new Date(NaN) }],
    ['extras nested 100k deep', { ...at(0), extras: nested(100_000) }],
    [`extras nested ${MAX_JSON_DEPTH + 1} deep`, { ...at(0), extras: nested(MAX_JSON_DEPTH + 1) }],
    ['extras of a megabyte', { ...at(0), extras: { text: 'x'.repeat(1 << 20) } }],
    ['extras with a function', { ...at(0), extras: { f: () => 1 } }],
    ['extras with a bigint', { ...at(0), extras: { n: 1n } }],
    ['an activity type of a megabyte', { ...at(0), activity: { type: 'x'.repeat(1 << 20) } }],
  ])('recordLocation and insertLocation reject %s with INVALID_LOCATION, storing nothing', async (_name, input) => {
    const bg = await openSdk();
    await bg.ready({});
    await bg.start();
    await expect(bg.recordLocation(input)).rejects.toMatchObject({ code: 'INVALID_LOCATION' });
    await expect(bg.store.insertLocation(input)).rejects.toMatchObject({ code: 'INVALID_LOCATION' });
    expect(await bg.getCount()).toBe(0);
  });

  it('extras at the depth limit are accepted', async () => {
    const bg = await openSdk();
    const location = await bg.store.insertLocation({ ...at(0), extras: nested(MAX_JSON_DEPTH - 1) });
    expect(location.extras).toEqual(nested(MAX_JSON_DEPTH - 1));
  });

  it('configuration objects nested without bound are INVALID_CONFIG, the running configuration unchanged', async () => {
    const bg = await openSdk();
    await bg.ready({ http: { params: { fleet: 'north' } } });
    await expect(bg.setConfig({ http: { params: nested(100_000) as JsonObject } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      key: 'http.params',
    });
    await expect(bg.setConfig({ persistence: { extras: { big: 'x'.repeat(1 << 20) } } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
    expect((await bg.getState()).http.params).toEqual({ fleet: 'north' });
  });

  it('geofence extras nested without bound are INVALID_GEOFENCE', async () => {
    const bg = await openSdk();
    const fence = { identifier: 'home', latitude: 45, longitude: -73, radius: 100 };
    await expect(bg.addGeofence({ ...fence, extras: nested(100_000) })).rejects.toMatchObject({
      code: 'INVALID_GEOFENCE',
    });
    await expect(bg.addGeofence({ ...fence, identifier: 'x'.repeat(10_000) })).rejects.toMatchObject({
      code: 'INVALID_GEOFENCE',
    });
    expect(await bg.getGeofences()).toEqual([]);
  });
});

describe('configuration keys are own keys of the field tables', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])(
    'setConfig({ http: { %s: 1 } }) is rejected',
    async (key) => {
      const bg = await openSdk();
      await bg.ready({});
      // JSON.parse makes __proto__ an own key, as a remote setConfig would.
      const input = JSON.parse(`{"http":{"${key}":1}}`) as Record<string, unknown>;
      await expect(bg.setConfig(input)).rejects.toMatchObject({ code: 'INVALID_CONFIG', key: `http.${key}` });
      const top = JSON.parse(`{"${key}":1}`) as Record<string, unknown>;
      await expect(bg.setConfig(top)).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
      expect(Object.hasOwn((await bg.getState()).http, key)).toBe(false);
    },
  );

  it('a remote setConfig with an inherited key is rejected and changes nothing', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } });
    server.script({
      status: 200,
      text: '{"background_geolocation":[["setConfig",{"http":{"constructor":1,"autoSyncThreshold":9}}]]}',
    });
    const commands: RemoteCommandEvent[] = [];
    bg.onRemoteCommand((event) => commands.push(event));
    await bg.store.insertLocation(at(0));
    await bg.sync();
    expect(commands).toEqual([expect.objectContaining({ command: 'setConfig', ok: false })]);
    expect(commands[0]!.error).toContain('http.constructor');
    expect((await bg.getState()).http.autoSyncThreshold).toBe(0);
  });
});
