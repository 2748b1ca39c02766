import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './helpers/spawn-server.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/sqlite-close-last.mjs', import.meta.url));

describe('a program that closes the SQLite server last', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-close-last-'));
  beforeAll(buildServer);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs to its end and exits 0: the checkpoint thread closes, the WAL is folded into the file', async () => {
    const database = join(dir, 'server.db');
    const child = spawn(process.execPath, [SCRIPT, database], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, output }).toEqual({ code: 0, output: '200\nclosed\n' });
    expect(existsSync(`${database}-wal`)).toBe(false);
    const db = new BetterSqlite3(database, { readonly: true });
    try {
      const row = db.prepare(`SELECT count(*) AS n FROM locations`).get() as { n: number };
      expect(row.n).toBe(100);
    } finally {
      db.close();
    }
  });
});
