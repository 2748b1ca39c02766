import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { DeviceBatch } from '../ingest/ingest-job.js';
import { byDevice } from '../ingest/ingest-job.js';
import { ingest, type IngestResult } from '../ingest/ingest-service.js';
import { uploadingDevice } from '../ingest/uploading-device.js';
import { verdicts } from '../ingest/verdicts.js';
import { capacitorGroups } from '../presets/capacitor.js';
import { osmandGroups, type TrackerGroup } from '../presets/osmand.js';
import { overlandGroups } from '../presets/overland.js';
import { isOwnTracks, ownTracksDevice, ownTracksTranslator, takesOwnTracks } from '../presets/owntracks.js';
import type { JsonObject } from '../presets/record-parts.js';
import {
  checkCount,
  deviceOutsideBody,
  INGEST_ROUTE,
  noDevice,
  quarantineReply,
  tokenDevice,
  UPLOAD_REPLY,
  uploadRoute,
} from './upload-route.js';

/**
 * Stores a tracker's records with a verdict each, as /locations does: a record that cannot be
 * stored (or is no track point) is quarantined with why, and the request still succeeds. Only what
 * makes the request unusable as a whole (no device named, too many records) refuses it.
 */
async function ingestGroups(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  groups: TrackerGroup[],
  found: (records: number) => void,
  receivedAt: number,
): Promise<IngestResult> {
  const count = groups.reduce((sum, g) => sum + g.found.length, 0);
  found(count);
  checkCount(ctx, count);
  const token = tokenDevice(principal);
  const outside = deviceOutsideBody(request);
  const batches = groups.map((group): DeviceBatch => {
    const device = uploadingDevice({ token, body: group.named, outside });
    if (!device) throw noDevice();
    return { deviceId: device.deviceId, ...verdicts(group.found, receivedAt, group.translator) };
  });
  return ingest(ctx, byDevice(batches), null);
}

const summary = (result: IngestResult) => ({
  success: true,
  stored: result.stored,
  duplicates: result.duplicates,
  ...quarantineReply(result.quarantined),
});

/**
 * An OwnTracks message, on /owntracks or /locations. The apps count any HTTP answer as delivered
 * (https://owntracks.org/booklet/tech/http/), so a location that cannot be stored is quarantined,
 * never refused; other message types (transition, waypoint, lwt, status...) are acknowledged and
 * not stored. The answer is the empty list of messages for the app.
 */
export async function ingestOwnTracks(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  message: JsonObject,
): Promise<[]> {
  if (!takesOwnTracks(message)) return [];
  const named = ownTracksDevice(message, request.headers, request.query as JsonObject);
  const device = uploadingDevice({ token: tokenDevice(principal), body: named, outside: deviceOutsideBody(request) });
  if (!device) throw noDevice();
  request.uploadRecords = 1;
  const found = [{ value: message, path: 'owntracks' }];
  const checked = verdicts(found, ctx.now(), ownTracksTranslator(device.deviceId));
  await ingest(ctx, [{ deviceId: device.deviceId, ...checked }], null);
  return [];
}

/** Overland counts a batch delivered only on exactly this answer; anything else and it resends the batch. */
const OVERLAND_OK = { 200: { type: 'object', properties: { result: { type: 'string' } } } } as const;

/** The routes of other trackers: each takes what its tracker sends, on the tracker's own contract. */
export function registerTrackerRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/owntracks',
    { schema: { body: { type: 'object' } }, config: INGEST_ROUTE },
    uploadRoute(ctx, async (request, principal) => {
      const body = request.body;
      if (!isOwnTracks(body)) throw badRequest('INVALID_BODY', 'An OwnTracks message is a JSON object with _type');
      return ingestOwnTracks(ctx, request, principal, body);
    }),
  );

  app.post(
    '/overland',
    { schema: { body: { type: 'object' }, response: OVERLAND_OK }, config: INGEST_ROUTE },
    uploadRoute(ctx, async (request, principal, found) => {
      const now = ctx.now();
      await ingestGroups(ctx, request, principal, overlandGroups(request.body), found, now);
      return { result: 'ok' };
    }),
  );

  app.post(
    '/capacitor',
    { schema: { body: { type: 'object' }, response: UPLOAD_REPLY }, config: INGEST_ROUTE },
    uploadRoute(ctx, async (request, principal, found) => {
      const now = ctx.now();
      return summary(await ingestGroups(ctx, request, principal, capacitorGroups(request.body), found, now));
    }),
  );

  const osmand = uploadRoute(ctx, async (request, principal, found) => {
    const now = ctx.now();
    const groups = osmandGroups(request.body, request.query as JsonObject, now);
    return summary(await ingestGroups(ctx, request, principal, groups, found, now));
  });
  // Traccar's clients are often set up with a trailing slash; a router that ignores it has both already.
  const slashFree = (app.initialConfig as { routerOptions?: { ignoreTrailingSlash?: boolean } }).routerOptions
    ?.ignoreTrailingSlash;
  for (const url of slashFree ? ['/osmand'] : ['/osmand', '/osmand/']) {
    // Traccar takes any method; a HEAD (a client's reachability check) is answered, never ingested.
    app.route({
      method: ['GET', 'POST', 'PUT'],
      url,
      exposeHeadRoute: false,
      schema: { response: UPLOAD_REPLY },
      config: INGEST_ROUTE,
      handler: osmand,
    });
    app.head(url, { config: INGEST_ROUTE }, async (_request, reply) => reply.code(200).send());
  }
}
