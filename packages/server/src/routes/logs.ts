import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Multipart } from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { liveScopeOf } from '../accounts/scope-filter.js';
import { deviceScopeSql } from '../accounts/scope-sql.js';
import { isLimited } from '../accounts/user-access.js';
import { refuseAnonymousWrite } from '../auth/device-credential.js';
import { authenticateUpload } from '../auth/credential-gate.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { checkGzip } from '../http/decompress.js';
import { refuseDevice } from '../ingest/device-policy.js';
import { checkDeviceId, checkText } from '../ingest/validation.js';
import { isoOrNull } from '../iso-time.js';
import { ensureDevice } from '../store/devices.js';
import { findLog, insertLog, listLogs } from '../store/logs.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { GATE_CODES } from './schemas/common.js';
import { LOG_LIST, LOG_UPLOAD, LOG_UPLOAD_CODES, LOG_UPLOADED } from './schemas/logs.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

const isGzip = (data: Buffer): boolean => data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;

/** Text fields of a log upload (device_id, model, platform ...), each at most this long. */
const MAX_FIELD_LENGTH = 1000;

/** The form's parts; a body the multipart parser cannot read is the client's fault (400), not ours. */
async function readForm(request: FastifyRequest): Promise<{ fields: Record<string, string>; content: Buffer | null }> {
  const fields: Record<string, string> = {};
  let content: Buffer | null = null;
  try {
    for await (const part of request.parts() as AsyncIterableIterator<Multipart>) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'log') content = data;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = checkText(part.value, `Field ${part.fieldname}`, MAX_FIELD_LENGTH) ?? '';
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (error instanceof HttpError || code === 'FST_REQ_FILE_TOO_LARGE') throw error;
    throw badRequest('MALFORMED_MULTIPART', `Malformed multipart body: ${(error as Error).message}`);
  }
  return { fields, content };
}

/**
 * Uploaded SDK logs: the multipart form of the SDK's uploadLog (a gzipped `log` part and text
 * fields). Logs are stored gzipped; a gzipped part is inflated once as a stream to check it, and
 * refused with 413 when it would inflate past logLimitBytes (a gzip bomb never grows in memory).
 */
export const logRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const limit = ctx.options.logLimitBytes;
  app.post(
    '/api/logs',
    {
      config: { upload: true, ...ACCESS.public },
      schema: {
        summary: "A device's SDK log upload (multipart/form-data, the log gzipped or plain)",
        consumes: ['multipart/form-data'],
        body: LOG_UPLOAD,
        response: { 201: LOG_UPLOADED, ...failures(...LOG_UPLOAD_CODES) },
      },
      // The form is read by the handler as a stream (its parts are never a JSON body): the schema
      // above is the document's description of it, not a check.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      // A device's credential, as on the location routes, checked before the form is read.
      const principal = await authenticateUpload(ctx, request);
      if (!request.isMultipart())
        throw badRequest('NOT_MULTIPART', 'Upload the log as multipart/form-data with a file part named "log"');
      const { fields, content: sent } = await readForm(request);
      if (!sent) throw badRequest('NO_LOG', 'The form has no file part named "log"');
      let content = sent;
      if (isGzip(sent)) {
        try {
          await checkGzip(sent, limit, 'The log');
        } catch (error) {
          if (error instanceof HttpError) throw error;
          throw badRequest('INVALID_LOG', 'The "log" part is not valid gzip data');
        }
      } else {
        content = await gzipAsync(sent);
      }
      if (principal.kind !== 'device' && fields.device_id === undefined)
        throw badRequest('NO_DEVICE', 'Send a device access token or a device_id field');
      const deviceId =
        principal.kind === 'device' ? principal.deviceId : checkDeviceId(fields.device_id, 'Field device_id');
      const model = checkText(fields.model, 'Field model');
      await refuseAnonymousWrite(ctx, principal, [deviceId]);
      ctx.rateLimiter.take('device', deviceId);
      const id = await ctx.db.transaction(async (tx) => {
        const refusal = refuseDevice(deviceId, await ensureDevice(tx, deviceId, ctx.now(), model));
        if (refusal) throw refusal;
        return insertLog(tx, { deviceId, fields, content }, ctx.now());
      });
      return reply.code(201).send({ success: true, id });
    },
  );

  // A user limited to orgs or groups lists and reads only their orgs' devices' logs (issue 33).
  const visibleLog = async (visible: (deviceId: string) => Promise<boolean>, row: { device_id: string | null }) =>
    row.device_id !== null && (await visible(row.device_id));
  app.get(
    '/api/logs',
    {
      config: ACCESS.viewer.filtered,
      schema: {
        summary: 'The uploaded logs the caller may see, with their form fields',
        response: { 200: LOG_LIST, ...failures(...GATE_CODES) },
      },
    },
    async (request) => {
      // Filtered in the query (issue 41): a limited user's list is read from their devices' rows only.
      const rows = await listLogs(ctx.db, deviceScopeSql(await requireAdmin(ctx, request), 'device_id'));
      return rows.map((row) => ({
        id: row.id,
        deviceId: row.device_id,
        ...(JSON.parse(row.fields) as Record<string, string>),
        size: row.size,
        createdAt: isoOrNull(Number(row.created_at)),
      }));
    },
  );

  app.get(
    '/api/logs/:id',
    {
      config: ACCESS.viewer.filtered,
      schema: {
        summary: 'One uploaded log, as text',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        response: {
          200: { description: 'The log', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...failures(...GATE_CODES, 'UNKNOWN_LOG', 'UNREADABLE_LOG'),
        },
      },
    },
    async (request, reply) => {
      const reader = await requireAdmin(ctx, request);
      const limited = isLimited(reader);
      const id = Number(request.params.id);
      const found = Number.isInteger(id) ? await findLog(ctx.db, id) : null;
      const row = found && (!limited || (await visibleLog(liveScopeOf(ctx, reader), found))) ? found : null;
      if (!row) throw new HttpError(404, 'UNKNOWN_LOG', `No log ${request.params.id}`);
      let text: string;
      try {
        text = (await gunzipAsync(row.content, { maxOutputLength: limit })).toString('utf8');
      } catch {
        throw new HttpError(422, 'UNREADABLE_LOG', `Log ${id} is not readable gzip within ${limit} bytes`);
      }
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );
};
