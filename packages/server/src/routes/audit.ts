import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { listAudit, type AuditRow } from '../audit/audit-store.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { safeText } from '../export/csv-writer.js';
import { integerParam } from './query-params.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { SCOPED_GATE_CODES } from './schemas/common.js';
import { AUDIT_PAGE, jsonOrCsv, PAGE_QUERY } from './schemas/device-reads.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 10_000;
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
      const query = request.query;
      const limit = integerParam(query, 'limit', 1, MAX_PAGE, DEFAULT_PAGE);
      const before = query.before ? integerParam(query, 'before', 1, Number.MAX_SAFE_INTEGER, 0) : null;
      const format = query.format ?? 'json';
      if (format !== 'json' && format !== 'csv')
        throw badRequest('INVALID_PARAMETER', `format must be json or csv, got ${format}`);
      const rows = await listAudit(ctx.db, limit, before);
      if (format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="audit.csv"')
          .send(csv(rows));
      }
      return { entries: rows.map(entryJson), next: rows.length === limit ? rows.at(-1)!.seq : null };
    },
  );
};
