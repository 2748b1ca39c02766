import Database from 'better-sqlite3';
import pg from 'pg';
import type { ServerOptions } from '@waypost/server';

/**
 * Runs SQL straight against a test server's storage, behind the server's back: for rows the
 * service itself would refuse (data from older versions, hand edits). `?` placeholders on both.
 */
export async function rawSql(storage: ServerOptions, sql: string, params: unknown[] = []): Promise<void> {
  if (storage.database) {
    const db = new Database(storage.database);
    try {
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const url = new URL(storage.databaseUrl!);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    let n = 0;
    await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await client.end();
  }
}
