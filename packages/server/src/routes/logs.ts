import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { requireAdmin, uploaderOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { refuseDevice } from '../ingest/device-policy.js';
import { ensureDevice } from '../store/devices.js';
import { findLog, insertLog, listLogs } from '../store/logs.js';

const isGzip = (data: Buffer): boolean => data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;

/** Uploaded SDK logs: the multipart form of the SDK's uploadLog (a gzipped `log` part and text fields). */
export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/logs', async (request, reply) => {
    const principal = await uploaderOf(ctx, request);
    if (!request.isMultipart())
      throw badRequest('NOT_MULTIPART', 'Upload the log as multipart/form-data with a file part named "log"');
    const fields: Record<string, string> = {};
    let content: Buffer | null = null;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'log') content = data;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
    if (!content) throw badRequest('NO_LOG', 'The form has no file part named "log"');
    if (isGzip(content)) {
      try {
        gunzipSync(content);
      } catch {
        throw badRequest('INVALID_LOG', 'The "log" part is not valid gzip data');
      }
    } else {
      content = gzipSync(content);
    }
    const deviceId = principal.kind === 'device' ? principal.deviceId : (fields.device_id ?? null);
    if (!deviceId) throw badRequest('NO_DEVICE', 'Send a device access token or a device_id field');
    const log = content;
    const id = await ctx.db.transaction(async (tx) => {
      const refusal = refuseDevice(deviceId, await ensureDevice(tx, deviceId, ctx.now(), fields.model ?? null));
      if (refusal) throw refusal;
      return insertLog(tx, { deviceId, fields, content: log }, ctx.now());
    });
    return reply.code(201).send({ success: true, id });
  });

  app.get('/api/logs', { preHandler: (request) => requireAdmin(ctx, request) }, async () =>
    (await listLogs(ctx.db)).map((row) => ({
      id: row.id,
      deviceId: row.device_id,
      ...(JSON.parse(row.fields) as Record<string, string>),
      size: row.size,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  );

  app.get<{ Params: { id: string } }>(
    '/api/logs/:id',
    { preHandler: (request) => requireAdmin(ctx, request) },
    async (request, reply) => {
      const id = Number(request.params.id);
      const row = Number.isInteger(id) ? await findLog(ctx.db, id) : null;
      if (!row) throw new HttpError(404, 'UNKNOWN_LOG', `No log ${request.params.id}`);
      return reply.type('text/plain; charset=utf-8').send(gunzipSync(row.content).toString('utf8'));
    },
  );
}
