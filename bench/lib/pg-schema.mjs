// A PostgreSQL schema of its own for each bench case, dropped afterwards.
import pg from 'pg';

export const PG_URL =
  process.env.WAYPOST_TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const createSchema = (schema) => adminQuery(`CREATE SCHEMA ${schema}`);
export const dropSchema = (schema) => adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
