import type { Queryable } from '../db/database.js';

/** One change as the audit trail keeps it (issue 33). */
export interface AuditEntry {
  at: number;
  /** Who: `admin-token`, `admin-session`, `admin-login` (the anchor's login token), `org:<name>`, `anonymous`. */
  actor: string;
  /** From where: the client address (the proxy's X-Forwarded-For with trustProxy). */
  address: string;
  /** What: the method and route, e.g. `DELETE /api/devices/:id`. */
  action: string;
  /** On what: the route's parameters as JSON (`{"id":"phone-1"}`), or null. */
  target: string | null;
  /** The answer's status: 2xx a change made, 403 one refused. */
  status: number;
  /** The request body, redacted and bounded (audit/redact.ts), or null. */
  detail: string | null;
}

export interface AuditRow extends AuditEntry {
  seq: number;
}

export async function appendAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.run(
    `INSERT INTO audit_log (at, actor, address, action, target, status, detail) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [entry.at, entry.actor, entry.address, entry.action, entry.target, entry.status, entry.detail],
  );
}

/** Newest first, `limit` rows before `before` (the previous page's last seq). */
export async function listAudit(db: Queryable, limit: number, before: number | null): Promise<AuditRow[]> {
  const rows = await db.query<AuditRow & Record<string, unknown>>(
    `SELECT seq, at, actor, address, action, target, status, detail FROM audit_log
     ${before === null ? '' : 'WHERE seq < ?'} ORDER BY seq DESC LIMIT ?`,
    before === null ? [limit] : [before, limit],
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq), at: Number(r.at), status: Number(r.status) }));
}
