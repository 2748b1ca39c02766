import pg from 'pg';
import type { Database, Queryable, Row, SqlValue, TransactionOptions } from './database.js';

const INT8_OID = 20;
/** A transaction idle this long is ended by PostgreSQL (see openPostgres). */
const IDLE_IN_TRANSACTION_MS = 5000;

/** `?` placeholders to PostgreSQL's `$1..$n` (our SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Statements the server runs again and again (its own SQL, a bounded set); the DDL of migrations is not. */
const REPEATED = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
/** Distinct statements named at most; beyond it (never, with the server's own SQL) they run unnamed. */
const MAX_NAMED = 5000;

/**
 * Each distinct statement gets a name, so every pooled connection parses and plans it once and
 * then only binds and executes it: less work for PostgreSQL per ingest transaction.
 */
function preparedCache(): (sql: string, params: readonly SqlValue[]) => pg.QueryConfig<SqlValue[]> {
  const names = new Map<string, { text: string; name: string | undefined }>();
  return (sql, params) => {
    let entry = names.get(sql);
    if (!entry) {
      const named = REPEATED.test(sql) && names.size < MAX_NAMED;
      entry = { text: numbered(sql), name: named ? `waypost_${names.size}` : undefined };
      names.set(sql, entry);
    }
    return entry.name
      ? { name: entry.name, text: entry.text, values: params as SqlValue[] }
      : { text: entry.text, values: params as SqlValue[] };
  };
}

function queryableOf(client: pg.Pool | pg.PoolClient, config: ReturnType<typeof preparedCache>): Queryable {
  return {
    dialect: 'postgres',
    async query<T extends Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
      return (await client.query(config(sql, params))).rows as T[];
    },
    async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
      return (await client.query(config(sql, params))).rowCount ?? 0;
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
  // idle_in_transaction_session_timeout: a transaction whose process went silent (its host cut off
  // from the network, frozen) would hold its device rows until TCP gave up, hours later; the server's own transactions never pause between statements
  // for more than milliseconds, so PostgreSQL ends such a session after a few seconds and its
  // unacknowledged upload is resent by the device. keepAlive: this side notices a dead server too.
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types,
    options: `-c search_path="${schema}" -c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('error', () => undefined); // an idle client's broken connection is replaced on next use
  // A client checked out for a transaction has no pool listener: its connection ended by the server
  // (a PostgreSQL restart: "terminating connection due to administrator command") between two
  // statements would be an unhandled 'error' event and end the process. The transaction's next
  // statement fails instead, and the pool drops the client when it is released with that error.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const config = preparedCache();
  return {
    ...queryableOf(pool, config),
    async transaction<T>(
      fn: (tx: Queryable, begun: Row[]) => Promise<T>,
      options: TransactionOptions = {},
    ): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const begun = await client.query(options.begin ? `BEGIN; ${options.begin}` : 'BEGIN');
        // Several statements give one result each: the caller wants the last one's rows.
        const results = Array.isArray(begun) ? (begun as pg.QueryResult[]) : [begun];
        const rows = results[results.length - 1]!.rows as Row[];
        const value = await fn(queryableOf(client, config), rows);
        await client.query(options.end ? `${options.end(rows)}; COMMIT` : 'COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
        throw error;
      } finally {
        // A client whose connection failed is destroyed, not put back for the next transaction.
        client.release(broken);
      }
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
