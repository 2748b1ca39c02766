import type { SqlValue } from '../db/database.js';
import { isLimited } from './user-access.js';
import type { Reader } from './scope-filter.js';

/** A condition for a query's WHERE clause, with its parameters. */
export interface SqlCondition {
  sql: string;
  params: SqlValue[];
}

const placeholders = (values: readonly string[]): string => values.map(() => '?').join(', ');

/**
 * The devices a reader may see, as a condition on a column holding a device id (issue 41): a list
 * filters by it in its query, before its LIMIT and cursor, so a limited user's page is of their
 * own rows (a filter after the LIMIT answered fewer, or none, and counted other orgs' rows).
 * Null for a reader who sees everything. A device is visible in one of the user's orgs or groups.
 */
export function deviceScopeSql(reader: Reader, column: string): SqlCondition | null {
  if (!isLimited(reader)) return null;
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (reader.orgs !== null && reader.orgs.length > 0) {
    parts.push(
      `${column} IN (SELECT d.id FROM devices d JOIN orgs o ON o.id = d.org_id WHERE o.name IN (${placeholders(reader.orgs)}))`,
    );
    params.push(...reader.orgs);
  }
  if (reader.groups !== null && reader.groups.length > 0) {
    parts.push(
      `${column} IN (SELECT m.device_id FROM device_group_members m WHERE m.group_name IN (${placeholders(reader.groups)}))`,
    );
    params.push(...reader.groups);
  }
  return { sql: parts.length === 0 ? '1 = 0' : `(${parts.join(' OR ')})`, params };
}
