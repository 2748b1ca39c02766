import type { FastifyInstance, FastifyRequest } from 'fastify';
import { uploaderOf, type Principal } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { extractBodies } from '../ingest/extract.js';
import { byDevice, ingest, type DeviceBatch } from '../ingest/ingest-service.js';
import { normalizeRecord } from '../ingest/normalize.js';
import { isOwnTracks, ownTracksDevice, ownTracksRecord } from '../presets/owntracks.js';
import { overlandDevice, overlandFeatures, overlandRecord } from '../presets/overland.js';
import { osmandRecord } from '../presets/osmand.js';

type Query = Record<string, unknown>;

/** Device named outside the body: the X-Device-Id header or ?device_id= (for bare-array bodies). */
function deviceOutsideBody(request: FastifyRequest): string | null {
  const header = request.headers['x-device-id'];
  if (typeof header === 'string' && header !== '') return header;
  const query = request.query as Query;
  return typeof query.device_id === 'string' && query.device_id !== '' ? query.device_id : null;
}

function noDevice(): HttpError {
  return badRequest(
    'NO_DEVICE',
    'No device named: send a device access token, or a device_id (or device.uuid) param, or an X-Device-Id header',
  );
}

function checkCount(ctx: AppContext, count: number): void {
  if (count > ctx.options.maxRecordsPerRequest) {
    throw new HttpError(
      413,
      'TOO_MANY_RECORDS',
      `The request holds ${count} records; this server takes at most ${ctx.options.maxRecordsPerRequest} per request (send smaller batches: http.maxBatchSize)`,
    );
  }
}

type UploadHandler = (
  request: FastifyRequest,
  principal: Principal,
  found: (records: number) => void,
) => Promise<unknown>;

/**
 * A route that takes uploads: the uploader is identified first (401 when tokens are required), and
 * the records of a request refused with a 4xx are counted as rejected (at least one per request).
 */
function uploadRoute(ctx: AppContext, handler: UploadHandler) {
  return async (request: FastifyRequest) => {
    const principal = await uploaderOf(ctx, request);
    let records = 0;
    try {
      return await handler(request, principal, (n) => {
        records = n;
      });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500 && error.statusCode !== 401) {
        ctx.metrics.rejected += Math.max(1, records);
      }
      throw error;
    }
  };
}

function commandsReply(commands: unknown[]): Record<string, unknown> {
  return commands.length > 0 ? { background_geolocation: commands } : {};
}

async function ingestOwnTracks(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  body: Record<string, unknown>,
) {
  const deviceId =
    principal.kind === 'device' ? principal.deviceId : (deviceOutsideBody(request) ?? ownTracksDevice(body));
  if (!deviceId) throw noDevice();
  const record = ownTracksRecord(body, deviceId, ctx.now());
  await ingest(ctx, [{ deviceId, records: record ? [record] : [] }], null);
  return [];
}

export function registerIngestRoutes(app: FastifyInstance, ctx: AppContext): void {
  const locations = uploadRoute(ctx, async (request, principal, found) => {
    const body = request.body;
    if (isOwnTracks(body)) return ingestOwnTracks(ctx, request, principal, body);
    const bodies = extractBodies(body);
    const count = bodies.reduce((sum, b) => sum + b.records.length, 0);
    found(count);
    checkCount(ctx, count);
    const now = ctx.now();
    const outside = deviceOutsideBody(request);
    const batches: DeviceBatch[] = bodies.map((b) => {
      const deviceId = principal.kind === 'device' ? principal.deviceId : (b.deviceId ?? outside);
      if (!deviceId) throw noDevice();
      return { deviceId, records: b.records.map((r) => normalizeRecord(r, now)) };
    });
    const grouped = byDevice(batches);
    const primary = principal.kind === 'device' ? principal.deviceId : (grouped[0]?.deviceId ?? outside);
    if (grouped.length === 0 && primary) grouped.push({ deviceId: primary, records: [] });
    const result = await ingest(ctx, grouped, primary);
    return {
      success: true,
      stored: result.stored,
      duplicates: result.duplicates,
      ...commandsReply(result.commands),
    };
  });
  for (const url of ['/locations', '/api/locations']) {
    app.route({ method: ['POST', 'PUT', 'PATCH'], url, handler: locations });
  }

  app.post(
    '/owntracks',
    uploadRoute(ctx, async (request, principal) => {
      const body = request.body;
      if (!isOwnTracks(body)) throw badRequest('INVALID_BODY', 'An OwnTracks message is a JSON object with _type');
      return ingestOwnTracks(ctx, request, principal, body);
    }),
  );

  app.post(
    '/overland',
    uploadRoute(ctx, async (request, principal, found) => {
      const features = overlandFeatures(request.body);
      found(features.length);
      checkCount(ctx, features.length);
      const now = ctx.now();
      const outside = deviceOutsideBody(request);
      const batches = features.map((feature, i): DeviceBatch => {
        const deviceId = principal.kind === 'device' ? principal.deviceId : (overlandDevice(feature) ?? outside);
        if (!deviceId) throw noDevice();
        return { deviceId, records: [overlandRecord(feature, `locations[${i}]`, deviceId, now)] };
      });
      await ingest(ctx, byDevice(batches), null);
      return { result: 'ok' };
    }),
  );

  const osmand = uploadRoute(ctx, async (request, principal) => {
    const body = request.body;
    const params = {
      ...(body && typeof body === 'object' && !Array.isArray(body) ? body : {}),
      ...(request.query as Query),
    };
    const { deviceId, record } = osmandRecord(params, ctx.now());
    const owner = principal.kind === 'device' ? principal.deviceId : deviceId;
    const result = await ingest(ctx, [{ deviceId: owner, records: [record] }], null);
    return { success: true, stored: result.stored, duplicates: result.duplicates };
  });
  app.get('/osmand', osmand);
  app.post('/osmand', osmand);
}
