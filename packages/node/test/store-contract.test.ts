import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { STORE_CONTRACT } from '../../sdk/test/contract/store-contract-cases.js';
import { ARCHIVE_CONTRACT } from '../../sdk/test/contract/archive-contract-cases.js';
import { createMemoryStore, openSqliteStore, SCHEMA_VERSION, type Store } from '@waypost/node';
import { at, openSdk, tempDir } from './support/harness.js';

const STORES: [string, () => Store][] = [
  ['memory', () => createMemoryStore()],
  ['sqlite :memory:', () => openSqliteStore(':memory:')],
  ['sqlite file', () => openSqliteStore(join(tempDir(), 'store.db'))],
];

const rec = (i: number, createdAt = 1_000 + i) => ({ uuid: `u${i}`, createdAt, json: JSON.stringify({ i }) });

// One contract, every store (DESIGN: the in-memory store ships with the package and must behave like
// SQLite). The cases are shared with the in-browser run against IndexedDB (packages/browser/test).
describe.each(STORES)('store contract: %s', (_name, factory) => {
  it.each(STORE_CONTRACT.map((c) => [c.name, c] as const))('%s', async (_case, contractCase) => {
    await contractCase.run(async () => factory());
  });
});

describe.each(STORES)('receipt archive contract: %s', (_name, factory) => {
  it.each(ARCHIVE_CONTRACT.map((c) => [c.name, c] as const))('%s', async (_case, contractCase) => {
    await contractCase.run(async () => factory());
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
