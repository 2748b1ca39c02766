import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FromSchema } from 'json-schema-to-ts';
import type { Principal } from '../auth/principal.js';
import { refuseAnonymousWrite, withoutDeviceKey } from '../auth/device-credential.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { DeviceBatch } from '../ingest/ingest-job.js';
import { byDevice } from '../ingest/ingest-job.js';
import { boundedName } from '../ingest/bounded-name.js';
import { ingest, type IngestResult } from '../ingest/ingest-service.js';
import { uploadingDevice } from '../ingest/uploading-device.js';
import { verdicts, type Translator } from '../ingest/verdicts.js';
import { capacitorGroups } from '../presets/capacitor.js';
import { osmandGroups, type TrackerGroup } from '../presets/osmand.js';
import { untimedIdentities } from '../presets/osmand-untimed.js';
import { overlandGroups } from '../presets/overland.js';
import { isOwnTracks, isOwnTracksLocation, ownTracksDevice, ownTracksTranslator } from '../presets/owntracks.js';
import { keptMessage } from '../presets/owntracks-kept.js';
import type { JsonObject } from '../presets/record-parts.js';
import { nullWhenEmpty } from '../http/route-schema.js';
import {
  checkCount,
  deviceOutsideBody,
  INGEST_ROUTE,
  noDevice,
  quarantineReply,
  tokenDevice,
  uploadRoute,
  type UploadRequest,
} from './upload-route.js';
import {
  CAPACITOR_SCHEMA,
  OSMAND_HEAD_SCHEMA,
  OSMAND_SCHEMA,
  OVERLAND_SCHEMA,
  OWNTRACKS_SCHEMA,
} from './tracker-schemas.js';

/**
 * The translator of records whose upload names no device: each is kept in quarantine (NO_DEVICE),
 * never stored as a track point, under the tracker's own `<tracker>-unnamed` device.
 */
const unnamedTranslator = (how: string): Translator => ({
  record: () => {
    throw badRequest('NO_DEVICE', `The upload names no device: ${how}`);
  },
});

/**
 * Stores a tracker's records with a verdict each, as /locations does: a record that cannot be
 * stored (or is no track point) is quarantined with why, and the request still succeeds. Only what
 * makes the request unusable as a whole (too many records; no device named, unless `unnamed` says
 * where such records are kept) refuses it.
 */
async function ingestGroups(
  ctx: AppContext,
  request: UploadRequest,
  principal: Principal,
  groups: TrackerGroup[],
  found: (records: number) => void,
  receivedAt: number,
  unnamed?: { deviceId: string; how: string },
): Promise<IngestResult> {
  const count = groups.reduce((sum, g) => sum + g.found.length, 0);
  found(count);
  checkCount(ctx, count);
  const token = tokenDevice(principal);
  const outside = deviceOutsideBody(request);
  const batches = groups.map((group): DeviceBatch => {
    const device = uploadingDevice({ token, body: group.named, outside });
    if (device) return { deviceId: device.deviceId, ...verdicts(group.found, receivedAt, group.translator) };
    if (!unnamed) throw noDevice();
    return { deviceId: unnamed.deviceId, ...verdicts(group.found, receivedAt, unnamedTranslator(unnamed.how)) };
  });
  const grouped = byDevice(batches);
  await refuseAnonymousWrite(
    ctx,
    principal,
    grouped.map((b) => b.deviceId),
  );
  return ingest(ctx, grouped, null);
}

const summary = (result: IngestResult) => ({
  success: true,
  stored: result.stored,
  duplicates: result.duplicates,
  ...quarantineReply(result.quarantined),
});

/** Where OwnTracks locations that name no device are kept (in quarantine, never as a track). */
export const OWNTRACKS_UNNAMED = 'owntracks-unnamed';

const OWNTRACKS_UNNAMED_HOW = 'set UserID and DeviceID in the OwnTracks app (Identification)';

/**
 * An OwnTracks message, on /owntracks or /locations. The apps count an answer as delivered (iOS
 * deletes a message answered 4xx; Android resends any other answer, head of line, for weeks: see
 * docs/trackers.md), so a message is never refused for what it holds: a location is stored or
 * quarantined with why, any other type kept in quarantine (NOT_A_POSITION, credentials redacted),
 * a name too long for a device id cut (the original kept with the record). The answer is the
 * empty list of messages for the app.
 */
export async function ingestOwnTracks(
  ctx: AppContext,
  request: UploadRequest,
  principal: Principal,
  message: JsonObject,
): Promise<[]> {
  const named = ownTracksDevice(message, request.headers, request.query);
  const device = uploadingDevice({ token: tokenDevice(principal), body: named, outside: deviceOutsideBody(request) });
  // A token names its device exactly; a name the app sends is bounded rather than refused.
  const name = device && device.source !== 'token' ? boundedName(device.deviceId) : null;
  // A message naming no user, device or tid is still delivered as far as the app knows: kept in
  // quarantine under one device of its own rather than refused (a refusal would lose it).
  const deviceId = name?.id ?? device?.deviceId ?? OWNTRACKS_UNNAMED;
  request.uploadRecords = 1;
  const found = [{ value: isOwnTracksLocation(message) ? message : keptMessage(message), path: 'owntracks' }];
  const translator = device
    ? ownTracksTranslator(deviceId, name?.original ?? null)
    : unnamedTranslator(OWNTRACKS_UNNAMED_HOW);
  await refuseAnonymousWrite(ctx, principal, [deviceId]);
  await ingest(ctx, [{ deviceId, ...verdicts(found, ctx.now(), translator) }], null);
  return [];
}

/** The routes of other trackers: each takes what its tracker sends, on the tracker's own contract. */
/**
 * A tracker route's request, typed from its schema's query and body: each handler is wrapped by
 * uploadRoute before it is registered, so it names the schema it serves.
 */
type TrackerRequest<S extends { querystring: object; body: object }> = UploadRequest & {
  query: FromSchema<S['querystring']>;
  body: FromSchema<S['body']>;
};
/** OsmAnd's request: its query, by OSMAND_SCHEMA (the handler serves GET, POST and PUT). */
type OsmandRequest = UploadRequest & { query: FromSchema<typeof OSMAND_SCHEMA.querystring> };

export function registerTrackerRoutes(plain: FastifyInstance, ctx: AppContext): void {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  app.post(
    '/owntracks',
    // Throttled: 503 + Retry-After, which both apps resend (a 429 is lost on iOS). A zero-length
    // body (posted when a friend is deleted, https://owntracks.org/booklet/tech/http/) is null.
    {
      schema: OWNTRACKS_SCHEMA,
      config: { ...INGEST_ROUTE, limitedStatus: 503, credentialRefusedStatus: 503, emptyJsonBody: null },
      // An empty body without a JSON Content-Type is undefined, or '' (text/plain): null as well.
      preValidation: nullWhenEmpty,
    },
    uploadRoute(ctx, async (request: TrackerRequest<typeof OWNTRACKS_SCHEMA>, principal) => {
      const body = request.body;
      // Nothing to keep: answered as delivered, so Android does not resend it ten times.
      if (body === null || body === undefined) return [];
      if (!isOwnTracks(body)) throw badRequest('INVALID_BODY', 'An OwnTracks message is a JSON object with _type');
      return ingestOwnTracks(ctx, request, principal, body);
    }),
  );

  app.post(
    '/overland',
    { schema: OVERLAND_SCHEMA, config: INGEST_ROUTE },
    uploadRoute(ctx, async (request: TrackerRequest<typeof OVERLAND_SCHEMA>, principal, found) => {
      const now = ctx.now();
      // Naming no device stays a 400: Overland keeps the batch and resends it once the URL or the
      // Device ID is set, so nothing is lost (the Capacitor plugin, by contrast, drops it).
      await ingestGroups(ctx, request, principal, overlandGroups(request.body), found, now);
      return { result: 'ok' };
    }),
  );

  app.post(
    '/capacitor',
    {
      schema: CAPACITOR_SCHEMA,
      config: { ...INGEST_ROUTE, credentialRefusedStatus: 503 },
    },
    uploadRoute(ctx, async (request: TrackerRequest<typeof CAPACITOR_SCHEMA>, principal, found) => {
      const now = ctx.now();
      const unnamed = { deviceId: 'capacitor-unnamed', how: 'add ?device_id= to sync.url, or a device token' };
      const groups = capacitorGroups(request.body);
      return summary(await ingestGroups(ctx, request, principal, groups, found, now, unnamed));
    }),
  );

  const osmand = uploadRoute(ctx, async (request: OsmandRequest, principal, found) => {
    const now = ctx.now();
    const untimed = new Map<unknown, string>();
    const groups = osmandGroups(request.body, withoutDeviceKey(request.query), now, untimed);
    // Requests without a timestamp: a repeated report is a new point, a retry the same one.
    const token = tokenDevice(principal);
    const outside = deviceOutsideBody(request);
    const named = groups.map((group) => ({
      group,
      deviceId: uploadingDevice({ token, body: group.named, outside })?.deviceId ?? null,
    }));
    for (const [params, uuid] of await untimedIdentities(ctx.db, named, now)) untimed.set(params, uuid);
    return summary(await ingestGroups(ctx, request, principal, groups, found, now));
  });
  // Traccar takes any method; a HEAD (a client's reachability check) is answered, never ingested.
  // /osmand/ reaches these routes too (http/method-routing.ts): trackers' URL fields vary.
  const { body, ...withoutBody } = OSMAND_SCHEMA;
  app.route({
    method: 'GET',
    url: '/osmand',
    exposeHeadRoute: false,
    schema: withoutBody,
    config: INGEST_ROUTE,
    handler: osmand,
  });
  app.route({
    method: ['POST', 'PUT'],
    url: '/osmand',
    schema: { ...withoutBody, body },
    config: INGEST_ROUTE,
    // Traccar Client posts its parameters in the query with no body at all: null, as the schema says.
    preValidation: nullWhenEmpty,
    handler: osmand,
  });
  app.head('/osmand', { schema: OSMAND_HEAD_SCHEMA, config: INGEST_ROUTE }, async (_request, reply) =>
    reply.code(200).send(),
  );
}
