import type { Queryable } from '../db/database.js';

export type OrgStatus = 'active' | 'banned' | 'deleted';

export interface OrgRow {
  id: number;
  name: string;
  status: OrgStatus;
  created_at: number;
  /** Its own retention period in days (0: for ever), or null for the server's. */
  retention_days: number | null;
}

const normalize = (row: OrgRow): OrgRow => ({
  ...row,
  id: Number(row.id),
  created_at: Number(row.created_at),
  retention_days: row.retention_days === null || row.retention_days === undefined ? null : Number(row.retention_days),
});

export async function findOrg(db: Queryable, name: string): Promise<OrgRow | null> {
  const rows = await db.query<OrgRow & Record<string, unknown>>(`SELECT * FROM orgs WHERE name = ?`, [name]);
  return rows[0] ? normalize(rows[0]) : null;
}

/** The org of this name, created on first sight (as the anchor does on registration). */
export async function findOrCreateOrg(db: Queryable, name: string, now: number): Promise<OrgRow> {
  await db.run(`INSERT INTO orgs (name, status, created_at) VALUES (?, 'active', ?) ON CONFLICT (name) DO NOTHING`, [
    name,
    now,
  ]);
  return (await findOrg(db, name))!;
}

export async function listOrgs(db: Queryable): Promise<OrgRow[]> {
  return (await db.query<OrgRow & Record<string, unknown>>(`SELECT * FROM orgs ORDER BY id`)).map(normalize);
}

export async function setOrgStatus(db: Queryable, name: string, status: OrgStatus): Promise<boolean> {
  return (await db.run(`UPDATE orgs SET status = ? WHERE name = ?`, [status, name])) > 0;
}

export async function setOrgRetention(db: Queryable, name: string, days: number | null): Promise<boolean> {
  return (await db.run(`UPDATE orgs SET retention_days = ? WHERE name = ?`, [days, name])) > 0;
}

export function orgJson(row: OrgRow) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    retentionDays: row.retention_days,
  };
}

/** The name of the org a device belongs to, or null. */
export async function orgOfDevice(db: Queryable, deviceId: string): Promise<string | null> {
  const rows = await db.query<{ name: string }>(
    `SELECT o.name FROM devices d JOIN orgs o ON o.id = d.org_id WHERE d.id = ?`,
    [deviceId],
  );
  return rows[0]?.name ?? null;
}
