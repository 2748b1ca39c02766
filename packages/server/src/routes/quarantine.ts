import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findDevice } from '../store/devices.js';
import { listQuarantine, type QuarantineRow } from '../store/quarantine.js';
import { pageOf, sendCsv } from './paged-read.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { DEVICE_PARAMS, SCOPED_GATE_CODES } from './schemas/common.js';
import { jsonOrCsv, PAGE_QUERY, QUARANTINE_PAGE } from './schemas/device-reads.js';

const csvCell = (value: string | number | null): string => {
  const text = value === null ? '' : String(value);
  // Quoted, quotes doubled; a leading = + - @ would be a formula in a spreadsheet: prefix it.
  return `"${(/^[=+\-@]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
};

function csv(rows: QuarantineRow[]): string {
  const header = ['id', 'received_at', 'uuid', 'code', 'message', 'raw'];
  const lines = rows.map((r) => [r.id, r.receivedAt, r.uuid, r.code, r.message, r.raw].map(csvCell).join(','));
  return `${header.join(',')}\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`;
}

/**
 * A device's quarantined records (issue 19), newest first: `GET /api/devices/:id/quarantine`
 * (admin), `?limit=` (default 100, at most 10,000), `?before=` (the previous page's `next`),
 * `?format=json|csv` (the export).
 */
export const quarantineRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  app.get(
    '/api/devices/:id/quarantine',
    {
      config: ACCESS.viewer.device,
      preHandler: (request) => requireAdmin(ctx, request),
      schema: {
        summary: "A device's quarantined records (what could not be stored, as it was sent), a page at a time",
        params: DEVICE_PARAMS,
        querystring: PAGE_QUERY,
        response: {
          200: jsonOrCsv(QUARANTINE_PAGE, 'The records'),
          ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE', 'INVALID_PARAMETER'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await findDevice(ctx.db, id)))
        throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${id}" on this server`);
      const { limit, before, format } = pageOf(request.query);
      const rows = await listQuarantine(ctx.db, id, limit, before);
      if (format === 'csv') return sendCsv(reply, 'quarantine.csv', csv(rows));
      return { records: rows, next: rows.length === limit ? rows.at(-1)!.id : null };
    },
  );
};
