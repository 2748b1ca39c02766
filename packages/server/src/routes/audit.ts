import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { listAudit, type AuditRow } from '../audit/audit-store.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { safeText } from '../export/csv-writer.js';
import { pageOf, sendCsv } from './paged-read.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { SCOPED_GATE_CODES } from './schemas/common.js';
import { AUDIT_PAGE, jsonOrCsv, PAGE_QUERY } from './schemas/device-reads.js';

const COLUMNS = ['seq', 'at', 'actor', 'address', 'action', 'target', 'status', 'detail'] as const;

const entryJson = (row: AuditRow) => ({ ...row, at: new Date(row.at).toISOString() });

function csv(rows: readonly AuditRow[]): string {
  const cell = (value: unknown) =>
    value === null ? '' : typeof value === 'number' ? String(value) : safeText(String(value));
  const lines = rows.map((row) =>
    COLUMNS.map((c) => cell(c === 'at' ? new Date(row.at).toISOString() : row[c])).join(','),
  );
  return [COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}

/**
 * `GET /api/audit` (admin): the audit trail, newest first: `{ entries: [{ seq, at, actor, address,
 * action, target, status, detail }], next }`, `?limit=` (default 100, at most 10,000), `?before=`
 * (the previous page's `next`), `?format=csv` (formula-safe cells). There is no route that changes it.
 */
export const auditRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  app.get(
    '/api/audit',
    {
      config: ACCESS.owner.none,
      preHandler: (request) => requireAdmin(ctx, request),
      schema: {
        summary: 'The audit trail (who changed what, when, from where), a page at a time',
        querystring: PAGE_QUERY,
        response: {
          200: jsonOrCsv(AUDIT_PAGE, 'The entries'),
          ...failures(...SCOPED_GATE_CODES, 'INVALID_PARAMETER'),
        },
      },
    },
    async (request, reply) => {
      const { limit, before, format } = pageOf(request.query);
      const rows = await listAudit(ctx.db, limit, before);
      if (format === 'csv') return sendCsv(reply, 'audit.csv', csv(rows));
      return { entries: rows.map(entryJson), next: rows.length === limit ? rows.at(-1)!.seq : null };
    },
  );
};
