import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryStore, openSqliteStore, SCHEMA_VERSION, type Store } from '@waypost/node';
import { at, openSdk, tempDir } from './support/harness.js';

const STORES: [string, () => Store][] = [
  ['memory', () => createMemoryStore()],
  ['sqlite :memory:', () => openSqliteStore(':memory:')],
  ['sqlite file', () => openSqliteStore(join(tempDir(), 'store.db'))],
];

function open(factory: () => Store): Store {
  const store = factory();
  onTestFinished(() => store.close());
  return store;
}

const rec = (i: number, createdAt = 1_000 + i) => ({ uuid: `u${i}`, createdAt, json: JSON.stringify({ i }) });

async function fill(store: Store, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await store.locations.insert(rec(i)));
  return ids;
}

// One contract, every store (DESIGN: the in-memory store ships with the package and must behave like SQLite).
describe.each(STORES)('store contract: %s', (_name, factory) => {
  describe('locations', () => {
    it('insert returns increasing ids; count counts', async () => {
      const store = open(factory);
      const ids = await fill(store, 3);
      expect(ids[1]! > ids[0]! && ids[2]! > ids[1]!).toBe(true);
      expect(await store.locations.count()).toBe(3);
    });

    it('list pages in ASC and DESC order with limit and offset', async () => {
      const store = open(factory);
      await fill(store, 5);
      const uuids = async (q: Parameters<Store['locations']['list']>[0]) =>
        (await store.locations.list(q)).map((r) => r.uuid);
      expect(await uuids({ order: 'ASC' })).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
      expect(await uuids({ order: 'DESC' })).toEqual(['u4', 'u3', 'u2', 'u1', 'u0']);
      expect(await uuids({ order: 'ASC', limit: 2 })).toEqual(['u0', 'u1']);
      expect(await uuids({ order: 'ASC', limit: 2, offset: 2 })).toEqual(['u2', 'u3']);
      expect(await uuids({ order: 'DESC', limit: 2, offset: 4 })).toEqual(['u0']);
      expect(await uuids({ order: 'ASC', limit: -1, offset: 3 })).toEqual(['u3', 'u4']);
      expect(await uuids({ order: 'ASC', limit: 0 })).toEqual([]);
      const [first] = await store.locations.list({ order: 'ASC', limit: 1 });
      expect(first).toEqual({ id: expect.any(Number), uuid: 'u0', createdAt: 1_000, json: '{"i":0}', locked: false });
    });

    it('lockNext takes unlocked records in order, marks them locked, and skips locked ones', async () => {
      const store = open(factory);
      await fill(store, 5);
      const a = await store.locations.lockNext(2, 'ASC');
      expect(a.map((r) => [r.uuid, r.locked])).toEqual([
        ['u0', true],
        ['u1', true],
      ]);
      expect((await store.locations.lockNext(2, 'DESC')).map((r) => r.uuid)).toEqual(['u4', 'u3']);
      expect((await store.locations.lockNext(10, 'ASC')).map((r) => r.uuid)).toEqual(['u2']);
      expect(await store.locations.lockNext(10, 'ASC')).toEqual([]);
      expect((await store.locations.list({ order: 'ASC' })).every((r) => r.locked)).toBe(true);
    });

    it('concurrent lockNext calls never hand out the same record', async () => {
      const store = open(factory);
      await fill(store, 20);
      const batches = await Promise.all(Array.from({ length: 8 }, () => store.locations.lockNext(3, 'ASC')));
      const taken = batches.flat().map((r) => r.uuid);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken).toHaveLength(20);
      for (const batch of batches) {
        const ids = batch.map((r) => r.id);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
      }
    });

    it('remove deletes exactly the given ids and counts the ones that existed', async () => {
      const store = open(factory);
      const ids = await fill(store, 4);
      expect(await store.locations.remove([ids[1]!, ids[3]!, 999_999])).toBe(2);
      expect((await store.locations.list({ order: 'ASC' })).map((r) => r.uuid)).toEqual(['u0', 'u2']);
      expect(await store.locations.remove([])).toBe(0);
    });

    it('unlock releases the given ids; unlockAll releases every lock and counts them', async () => {
      const store = open(factory);
      await fill(store, 4);
      const locked = await store.locations.lockNext(3, 'ASC');
      await store.locations.unlock([locked[1]!.id]);
      expect((await store.locations.lockNext(10, 'ASC')).map((r) => r.uuid)).toEqual(['u1', 'u3']);
      expect(await store.locations.unlockAll()).toBe(4);
      expect(await store.locations.unlockAll()).toBe(0);
      expect((await store.locations.list({ order: 'ASC' })).some((r) => r.locked)).toBe(false);
    });

    it('removeAll and removeByUuid', async () => {
      const store = open(factory);
      await fill(store, 3);
      expect(await store.locations.removeByUuid('u1')).toBe(true);
      expect(await store.locations.removeByUuid('u1')).toBe(false);
      expect(await store.locations.removeByUuid('nope')).toBe(false);
      expect(await store.locations.count()).toBe(2);
      await store.locations.lockNext(1, 'ASC');
      expect(await store.locations.removeAll()).toBe(2);
      expect(await store.locations.count()).toBe(0);
    });

    it('prune by age removes records created strictly before olderThan', async () => {
      const store = open(factory);
      await fill(store, 5); // createdAt 1000..1004
      expect(await store.locations.prune({ olderThan: 1_002 })).toBe(2);
      expect((await store.locations.list({ order: 'ASC' })).map((r) => r.uuid)).toEqual(['u2', 'u3', 'u4']);
    });

    it('prune by cap drops the oldest; cap 0 drops all; age and cap combine', async () => {
      const store = open(factory);
      await fill(store, 6);
      expect(await store.locations.prune({ maxRecords: 4 })).toBe(2);
      expect((await store.locations.list({ order: 'ASC' })).map((r) => r.uuid)).toEqual(['u2', 'u3', 'u4', 'u5']);
      expect(await store.locations.prune({ maxRecords: 10 })).toBe(0);
      expect(await store.locations.prune({ olderThan: 1_003, maxRecords: 2 })).toBe(2);
      expect((await store.locations.list({ order: 'ASC' })).map((r) => r.uuid)).toEqual(['u4', 'u5']);
      expect(await store.locations.prune({ maxRecords: 0 })).toBe(2);
      expect(await store.locations.count()).toBe(0);
    });
  });

  it('log: append, read oldest first (since, limit = the last N), clear, prune', async () => {
    const store = open(factory);
    const entries = [1, 2, 3, 4].map((t) => ({ timestamp: t * 100, level: 3, tag: 'T', message: `m${t}` }));
    await store.log.append(entries.slice(0, 2));
    await store.log.append(entries.slice(2));
    expect(await store.log.read()).toEqual(entries);
    expect((await store.log.read({ since: 300 })).map((e) => e.message)).toEqual(['m3', 'm4']);
    expect((await store.log.read({ limit: 2 })).map((e) => e.message)).toEqual(['m3', 'm4']);
    expect(await store.log.read({ limit: 0 })).toEqual([]);
    expect(await store.log.read({ limit: -1 })).toEqual(entries);
    const messages = async (query: Parameters<typeof store.log.read>[0]) =>
      (await store.log.read(query)).map((e) => e.message);
    // The anchor's SQLQuery: start/end inclusive, ASC from the oldest, DESC from the newest.
    expect(await messages({ start: 200, end: 300 })).toEqual(['m2', 'm3']);
    expect(await messages({ order: 'ASC', limit: 2 })).toEqual(['m1', 'm2']);
    expect(await messages({ order: 'DESC', limit: 2 })).toEqual(['m4', 'm3']);
    expect(await messages({ order: 'DESC', limit: 2, offset: 1 })).toEqual(['m3', 'm2']);
    expect(await messages({ order: 'ASC', start: 200, offset: 1 })).toEqual(['m3', 'm4']);
    expect(await messages({ limit: 2, offset: 1 })).toEqual(['m2', 'm3']);
    expect(await store.log.prune(250)).toBe(2);
    expect((await store.log.read()).map((e) => e.message)).toEqual(['m3', 'm4']);
    await store.log.clear();
    expect(await store.log.read()).toEqual([]);
  });

  it('kv: get, set (overwrite), delete', async () => {
    const store = open(factory);
    expect(await store.kv.get('k')).toBeUndefined();
    await store.kv.set('k', 'v1');
    await store.kv.set('k', 'v2');
    expect(await store.kv.get('k')).toBe('v2');
    await store.kv.delete('k');
    expect(await store.kv.get('k')).toBeUndefined();
  });

  it('geofences: upsert, all, remove, removeAll', async () => {
    const store = open(factory);
    await store.geofences.upsert([
      { identifier: 'home', json: '{"r":1}' },
      { identifier: 'work', json: '{"r":2}' },
    ]);
    await store.geofences.upsert([{ identifier: 'home', json: '{"r":3}' }]);
    const all = await store.geofences.all();
    expect([...all].sort((a, b) => a.identifier.localeCompare(b.identifier))).toEqual([
      { identifier: 'home', json: '{"r":3}' },
      { identifier: 'work', json: '{"r":2}' },
    ]);
    expect(await store.geofences.remove(['home', 'nope'])).toBe(1);
    expect(await store.geofences.removeAll()).toBe(1);
    expect(await store.geofences.all()).toEqual([]);
  });
});

describe('SQLite schema and files', () => {
  it('migrations set user_version to SCHEMA_VERSION', async () => {
    const file = join(tempDir(), 'schema.db');
    await openSqliteStore(file).close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    expect(SCHEMA_VERSION).toBeGreaterThan(0);
  });

  it('a database with a newer user_version is refused with a clear error', async () => {
    const file = join(tempDir(), 'newer.db');
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSqliteStore(file)).toThrow(/newer than this Waypost.*upgrade @waypost\/node/);
    await expect(openSdk({ database: file })).rejects.toMatchObject({ code: 'STORE' });
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('a file store keeps records, locks released on reopen by the SDK', async () => {
    const file = join(tempDir(), 'keep.db');
    const store = openSqliteStore(file);
    // Recent records: the SDK applies retention (maxDaysToPersist) when it opens the file.
    for (let i = 0; i < 3; i++) await store.locations.insert(rec(i, Date.now()));
    await store.locations.lockNext(2, 'ASC');
    await store.close();
    const bg = await openSdk({ database: file });
    expect(await bg.getCount()).toBe(3);
    const reopened = openSqliteStore(file);
    onTestFinished(() => reopened.close());
    expect((await reopened.locations.list({ order: 'ASC' })).some((r) => r.locked)).toBe(false);
  });

  it('getLocations({ limit, offset, order }) pages through the queue', async () => {
    const bg = await openSdk();
    await bg.ready({});
    const uuids = [];
    for (let i = 0; i < 5; i++) uuids.push((await bg.store.insertLocation(at(i))).uuid);
    const page = async (q: Parameters<typeof bg.getLocations>[0]) =>
      (await bg.getLocations(q)).map((r) => (r as { uuid: string }).uuid);
    expect(await page({ limit: 2 })).toEqual(uuids.slice(0, 2));
    expect(await page({ limit: 2, offset: 2 })).toEqual(uuids.slice(2, 4));
    expect(await page({ limit: 2, offset: 4 })).toEqual(uuids.slice(4));
    expect(await page({ order: 'DESC', limit: 3 })).toEqual([...uuids].reverse().slice(0, 3));
    await bg.setConfig({ persistence: { locationsOrderDirection: 'DESC' } });
    expect(await page({})).toEqual([...uuids].reverse());
  });
});
