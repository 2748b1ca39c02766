import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '@waypost/node';
import { MIGRATIONS } from '../src/sqlite/migrations.js';
import { tempDir } from './support/harness.js';

describe('SQLite schema migrations', () => {
  it('a version 1 database (lock flag in a column) keeps its records and their locks', async () => {
    const file = join(tempDir(), 'v1.db');
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    const insert = old.prepare('INSERT INTO locations (uuid, created_at, json, locked) VALUES (?, ?, ?, ?)');
    insert.run('a', 1, '{"uuid":"a"}', 0);
    insert.run('b', 2, '{"uuid":"b"}', 1);
    old.close();

    const store = openSqliteStore(file);
    const rows = await store.locations.list({ order: 'ASC' });
    expect(rows.map((r) => [r.uuid, r.locked])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect((await store.locations.lockNext(10, 'ASC')).map((r) => r.uuid)).toEqual(['a']);
    expect(await store.locations.unlockAll()).toBe(2);
    await store.close();

    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const columns = (check.pragma('table_info(locations)') as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('locked');
    check.close();
  });
});
