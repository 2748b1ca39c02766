import { Readable } from 'node:stream';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { exportPages } from '../export/export-rows.js';
import {
  collectFieldNames,
  csvColumnsOf,
  EXPORT_FORMATS,
  needsColumns,
  trackWriter,
  type ExportFormat,
} from '../export/formats.js';
import {
  cursorOf,
  hasLocationAfter,
  keyOfCursor,
  nthLocationKey,
  type LocationRange,
} from '../store/location-pages.js';
import { EXPORT_SCHEMA } from './export-schema.js';
import { findDevice } from '../store/devices.js';
import { MAX_EXPORT_LIMIT } from './limits.js';
import { integerParam, timeParam } from './query-params.js';
import { ACCESS } from '../accounts/route-rules.js';

/** The cursor of the next page, when a `limit` left records out (also in Link: rel="next"). */
export const NEXT_CURSOR_HEADER = 'waypost-next-cursor';
/** CSV field columns left out past MAX_CSV_FIELD_COLUMNS. */
export const COLUMNS_OMITTED_HEADER = 'waypost-columns-omitted';

function formatOf(query: { format?: string }): ExportFormat {
  const format = (query.format ?? 'json') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    throw badRequest('INVALID_PARAMETER', `format must be one of ${EXPORT_FORMATS.join(', ')}, got ${query.format}`);
  }
  return format;
}

function rangeOf(deviceId: string, query: { after?: string; from?: string; to?: string }): LocationRange {
  const after = query.after ? keyOfCursor(query.after) : null;
  if (query.after && !after) {
    throw badRequest('INVALID_PARAMETER', `after must be a cursor from ${NEXT_CURSOR_HEADER}, got ${query.after}`);
  }
  return { deviceId, from: timeParam(query, 'from'), to: timeParam(query, 'to'), after, until: null };
}

/** This request's URL with `after` set: the next page. */
function nextPageUrl(request: FastifyRequest, cursor: string): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('after', cursor);
  return `${url.pathname}${url.search}`;
}

/**
 * A device's records as JSON, GeoJSON, GPX, KML or CSV. Without `limit` the whole range is
 * written, streamed page by page (memory bounded by a page, whatever the range holds). With
 * `limit`, at most that many; when more exist, Link: <...&after=cursor>; rel="next" and
 * Waypost-Next-Cursor say so, and `after=<cursor>` continues where the page ended.
 */
export const exportRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  app
    .withTypeProvider<JsonSchemaToTsProvider>()
    .get(
      '/api/devices/:id/locations',
      { preHandler: admin, config: ACCESS.viewer.device, schema: EXPORT_SCHEMA },
      async (request, reply) => {
        const query = request.query;
        const format = formatOf(query);
        // An empty file for a device that does not exist would read as "it sent nothing" (a typo, a
        // deleted device): answered as every other device route answers it.
        if (!(await findDevice(ctx.db, request.params.id))) {
          throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${request.params.id}" on this server`);
        }
        const range = rangeOf(request.params.id, query);
        if (query.limit !== undefined && query.limit !== '') {
          const limit = integerParam(query, 'limit', 1, MAX_EXPORT_LIMIT, MAX_EXPORT_LIMIT);
          const last = await nthLocationKey(ctx.db, range, limit);
          if (last && (await hasLocationAfter(ctx.db, range, last))) {
            range.until = last;
            const cursor = cursorOf(last);
            reply.header(NEXT_CURSOR_HEADER, cursor).header('link', `<${nextPageUrl(request, cursor)}>; rel="next"`);
          }
        }
        let columns: string[] = [];
        if (needsColumns(format)) {
          const names = new Set<string>();
          for await (const page of exportPages(ctx.db, range)) collectFieldNames(names, page);
          const csv = csvColumnsOf(names);
          columns = csv.columns;
          if (csv.omitted > 0) reply.header(COLUMNS_OMITTED_HEADER, String(csv.omitted));
        }
        const writer = trackWriter(format, request.params.id, columns);
        const db = ctx.db;
        async function* body(): AsyncGenerator<Buffer> {
          yield Buffer.from(writer.head());
          for await (const page of exportPages(db, range))
            yield Buffer.from(page.map((row) => writer.row(row)).join(''));
          yield Buffer.from(writer.tail());
        }
        // A stream goes out as written, no serializer between: the schema types its content as the
        // format's text (or JSON), which the stream's bytes are.
        return reply.type(writer.type).send(Readable.from(body()) as unknown as string);
      },
    );
};
