import Database from 'better-sqlite3';
import pg from 'pg';
import type { ServerOptions } from '@waypost/server';

/** Every row of one table, each cell as text (a blob as latin1, so planted bytes are found in it). */
export type TableDump = Record<string, string | null>[];

const cellText = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : Buffer.isBuffer(value)
      ? value.toString('latin1')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value as string | number | bigint | boolean);

const asText = (rows: Record<string, unknown>[]): TableDump =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cellText(v)])));

/**
 * Every table of a test server's database with all its rows, read behind the server's back (the
 * tables as the database lists them: sqlite_master, information_schema), so a table added later is
 * in the dump without a test naming it.
 */
export async function dumpDatabase(storage: ServerOptions): Promise<Record<string, TableDump>> {
  const out: Record<string, TableDump> = {};
  if (storage.database) {
    const db = new Database(storage.database, { readonly: true });
    try {
      const tables = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
        .all() as { name: string }[];
      for (const { name } of tables)
        out[name] = asText(db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]);
    } finally {
      db.close();
    }
    return out;
  }
  const url = new URL(storage.databaseUrl!);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
      [schema],
    );
    for (const { table_name: name } of tables.rows) {
      out[name] = asText((await client.query(`SELECT * FROM "${schema}"."${name}"`)).rows);
    }
  } finally {
    await client.end();
  }
  return out;
}
