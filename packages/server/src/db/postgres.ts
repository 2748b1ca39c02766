import pg from 'pg';
import type { Database, Queryable, Row, SqlValue } from './database.js';

const INT8_OID = 20;

/** `?` placeholders to PostgreSQL's `$1..$n` (our SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function queryableOf(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T extends Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
      return (await client.query(numbered(sql), params as SqlValue[])).rows as T[];
    },
    async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
      return (await client.query(numbered(sql), params as SqlValue[])).rowCount ?? 0;
    },
  };
}

/** Splits `?schema=name` off a database URL: node-postgres does not know that parameter. */
export function parseDatabaseUrl(url: string, schema?: string): { connectionString: string; schema: string } {
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const chosen = schema ?? fromUrl ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(chosen)) {
    throw new Error(`Invalid PostgreSQL schema name "${chosen}": use letters, digits and underscores`);
  }
  return { connectionString: parsed.toString(), schema: chosen };
}

/** PostgreSQL through a pg pool; every connection works in the chosen schema (created if missing). */
export async function openPostgres(url: string, schemaOption?: string, poolSize = 10): Promise<Database> {
  const { connectionString, schema } = parseDatabaseUrl(url, schemaOption);
  const types = {
    // Counters and epoch milliseconds are BIGINT: they fit a JS number, so read them as one.
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID
        ? (value: string) => Number(value)
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  if (schema !== 'public') {
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (error) {
      // Two processes creating the same schema at once: the loser's error is harmless.
      if ((error as { code?: string }).code !== '23505') throw error;
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({ connectionString, max: poolSize, types, options: `-c search_path="${schema}"` });
  pool.on('error', () => undefined); // an idle client's broken connection is replaced on next use
  return {
    dialect: 'postgres',
    ...queryableOf(pool),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await fn(queryableOf(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
