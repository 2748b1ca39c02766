import type { Database } from './database.js';

/** The SQL each dialect spells differently, for migrations written once for both. */
export interface SqlTypes {
  id: string;
  bigint: string;
  real: string;
  blob: string;
  /** Statements that make a table refuse UPDATE and DELETE (an append-only log). */
  appendOnly(table: string): string[];
  /** Statements that undo appendOnly, for a migration that must rewrite such a table once. */
  dropAppendOnly(table: string): string[];
  dialect: Database['dialect'];
}

const APPEND_ONLY_MESSAGE = 'append-only: rows are never changed or removed';

export const SQL_TYPES: Record<Database['dialect'], SqlTypes> = {
  sqlite: {
    dialect: 'sqlite',
    id: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    bigint: 'INTEGER',
    real: 'REAL',
    blob: 'BLOB',
    appendOnly: (table) =>
      ['UPDATE', 'DELETE'].map(
        (op) =>
          `CREATE TRIGGER ${table}_no_${op.toLowerCase()} BEFORE ${op} ON ${table}
           BEGIN SELECT RAISE(ABORT, '${table} is ${APPEND_ONLY_MESSAGE}'); END`,
      ),
    dropAppendOnly: (table) => [`DROP TRIGGER ${table}_no_update`, `DROP TRIGGER ${table}_no_delete`],
  },
  postgres: {
    dialect: 'postgres',
    id: 'BIGSERIAL PRIMARY KEY',
    bigint: 'BIGINT',
    real: 'DOUBLE PRECISION',
    blob: 'BYTEA',
    appendOnly: (table) => [
      `CREATE FUNCTION ${table}_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION '${table} is ${APPEND_ONLY_MESSAGE}'; END $$`,
      `CREATE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON ${table}
       FOR EACH ROW EXECUTE FUNCTION ${table}_refuse_change()`,
    ],
    dropAppendOnly: (table) => [
      `DROP TRIGGER ${table}_no_change ON ${table}`,
      `DROP FUNCTION ${table}_refuse_change()`,
    ],
  },
};
