// A file that belongs to another program is refused before anything is written to it: no SDK
// tables, no switch to WAL (which would stay in the file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createBackgroundGeolocation, openSqliteStore } from '@waypost/node';

function foreignFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-foreign-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'places.sqlite');
  const db = new Database(file);
  db.exec(
    `CREATE TABLE places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO places (url) VALUES ('https://a.example')`,
  );
  db.close();
  return file;
}

function inspect(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (row) => row.name,
    );
    return {
      tables,
      journal: db.pragma('journal_mode', { simple: true }),
      version: db.pragma('user_version', { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe("another program's SQLite file", () => {
  it('is refused with STORE, naming its tables, and left exactly as it was', async () => {
    const file = foreignFile();
    expect(() => openSqliteStore(file)).toThrow(
      expect.objectContaining({
        code: 'STORE',
        message: expect.stringMatching(
          /is not a Waypost device database: it holds another program's tables \(places\)/,
        ),
      }),
    );
    await expect(createBackgroundGeolocation({ database: file })).rejects.toMatchObject({ code: 'STORE' });
    expect(inspect(file)).toEqual({ tables: ['places'], journal: 'delete', version: 0 });
  });

  it('an empty file, a new one and a Waypost database open as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-own-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'queue.db');
    const first = await createBackgroundGeolocation({ database: file });
    await first.close();
    const again = await createBackgroundGeolocation({ database: file });
    expect(await again.getCount()).toBe(0);
    await again.close();
  });
});
