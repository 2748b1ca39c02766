import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FromSchema } from 'json-schema-to-ts';
import type { Principal } from '../auth/principal.js';
import { countRefused } from '../auth/device-credential.js';
import type { AppContext } from '../context.js';
import { extractBodies, type UploadBody } from '../ingest/extract.js';
import { verdicts } from '../ingest/verdicts.js';
import {
  DROPPED_HEADER,
  parseDroppedHeader,
  RECEIPTED_HEADER,
  RECEIPTS_HEADER,
  type DroppedReport,
} from '@waypost/sdk/internal';
import { byDevice, type DeviceBatch } from '../ingest/ingest-job.js';
import { ingest } from '../ingest/ingest-service.js';
import { healthReportOf, noteHealthReport } from '../health/health-service.js';
import { deviceInfoIn, orgDeviceKey, orgIn, resolveOrgDevices, type OrgDeviceName } from '../ingest/org-devices.js';
import { uploadingDevice, type UploadingDevice } from '../ingest/uploading-device.js';
import { isOwnTracks } from '../presets/owntracks.js';
import { ingestOwnTracks, registerTrackerRoutes } from './tracker-routes.js';
import { receiptFor, registerReceipts } from '../receipts/receipt-routes.js';
import { repairCommandFor } from '../receipts/claim-check.js';
import {
  checkCount,
  commandsReply,
  quarantineReply,
  deviceOutsideBody,
  noDevice,
  tokenDevice,
  INGEST_ROUTE,
  uploadRoute,
  type UploadRequest,
} from './upload-route.js';
import type { ORG_PARAMS } from './anchor/schemas.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import { DEVICE_QUERY, RECEIPTED_UPLOAD_REPLY, UPLOAD_BODY, UPLOAD_HEADERS, UPLOAD_SECURITY } from './upload-schema.js';

/** The contract of Waypost's own location routes (the SDK's uploads, every body shape). */
const LOCATIONS_SCHEMA = {
  summary: "Upload a device's locations (the Waypost SDK, the commercial SDK's shapes, OwnTracks)",
  security: UPLOAD_SECURITY,
  body: UPLOAD_BODY,
  headers: UPLOAD_HEADERS,
  querystring: DEVICE_QUERY,
  response: RECEIPTED_UPLOAD_REPLY,
} as const;

/** Which org a tokenless upload names on an anchor route: the path's, or its body's. */
export type OrgOf<R extends UploadRequest> = ((request: R, params: UploadBody['params']) => string | null) | null;

/** An anchor upload on a path that names its org (/locations/:company_token), as ORG_PARAMS types it. */
type OrgPathRequest = UploadRequest & { params: FromSchema<typeof ORG_PARAMS> };

/** The org in the path (/locations/:company_token), else in the body (company_token, org, device.*). */
export const orgOfPathOrBody: OrgOf<OrgPathRequest> = (request, params) =>
  request.params.company_token || orgIn(params);

/** The org in the body, on an anchor path that names none. */
export const orgOfBody: OrgOf<UploadRequest> = (_request, params) => orgIn(params);

/** A device name of an anchor body: its device id, else a top-level uuid beside the records. */
function anchorDeviceName(body: UploadBody): string | null {
  if (body.deviceId !== null) return body.deviceId;
  const uuid = body.params?.uuid;
  const isRecordItself = body.records.length === 1 && body.records[0]!.value === body.params;
  return typeof uuid === 'string' && uuid !== '' && !isRecordItself ? uuid : null;
}

/**
 * The devices of each body of a request by the one rule; on an anchor route a device named
 * without a token is looked up (or created) inside the org the request names.
 */
async function devicesOf<R extends UploadRequest>(
  ctx: AppContext,
  request: R,
  principal: Principal,
  bodies: UploadBody[],
  orgOf: OrgOf<R>,
): Promise<UploadingDevice[]> {
  const outside = deviceOutsideBody(request);
  const named = bodies.map((b) => {
    const device = uploadingDevice({
      token: tokenDevice(principal),
      body: orgOf ? anchorDeviceName(b) : b.deviceId,
      outside,
    });
    if (!device) throw noDevice();
    const org = device.source === 'token' || !orgOf ? null : orgOf(request, b.params);
    return { device, org, params: b.params ?? {} };
  });
  const inOrgs: OrgDeviceName[] = named.flatMap(({ device, org, params }) =>
    org === null ? [] : [{ org, device: deviceInfoIn(params, device.deviceId) }],
  );
  const ids = await resolveOrgDevices(ctx, inOrgs);
  return named.map(({ device, org }) =>
    org === null ? device : { ...device, deviceId: ids.get(orgDeviceKey(org, device.deviceId))! },
  );
}

/**
 * The sequence numbers the uploading device reports dropped (the Waypost-Dropped header). A header
 * that does not parse is ignored, with a log line (code DROPPED_HEADER_INVALID): it never fails the
 * upload it rides on.
 */
function droppedReportOf(request: FastifyRequest): DroppedReport {
  const header = request.headers[DROPPED_HEADER];
  if (typeof header !== 'string' || header.trim() === '') return [];
  const parsed = parseDroppedHeader(header);
  if (parsed.ok) return parsed.report;
  request.log.warn({ code: 'DROPPED_HEADER_INVALID' }, `Waypost-Dropped header ignored: ${parsed.why}`);
  return [];
}

/** The handler of the location routes: every SDK body shape, on Waypost's paths and the anchor's. */
export function locationsHandler<R extends UploadRequest>(ctx: AppContext, orgOf: OrgOf<R>) {
  return uploadRoute(ctx, async (request: R, principal, found) => {
    const body = request.body;
    if (isOwnTracks(body)) return ingestOwnTracks(ctx, request, principal, body);
    const bodies = extractBodies(body, (count) => {
      found(count);
      checkCount(ctx, count);
    });
    const now = ctx.now();
    // Every record gets its own verdict before anything is written: stored, or quarantined.
    const checked = bodies.map((b) => verdicts(b.records, now));
    const devices = await devicesOf(ctx, request, principal, bodies, orgOf);
    const batches: DeviceBatch[] = bodies.map((_b, i) => ({ deviceId: devices[i]!.deviceId, ...checked[i]! }));
    const grouped = byDevice(batches);
    const primary = tokenDevice(principal) ?? grouped[0]?.deviceId ?? deviceOutsideBody(request);
    if (grouped.length === 0 && primary) grouped.push({ deviceId: primary, records: [] });
    const health = primary ? healthReportOf(request) : null;
    // A device holding a token or key is refused an upload without one on its locked row, in the
    // ingest transaction (no query of its own on the upload path), before anything is written.
    const anonymous = principal.kind !== 'device' && principal.kind !== 'admin';
    let result;
    let credentialRefused = false;
    try {
      result = await ingest(ctx, grouped, primary, droppedReportOf(request), health ? primary : null, anonymous);
    } catch (error) {
      credentialRefused = (error as { code?: string }).code === 'CREDENTIAL_REQUIRED';
      if (credentialRefused) countRefused(ctx, 'CREDENTIAL_REQUIRED');
      throw error;
    } finally {
      // Kept even when the device is refused (blocked): what it said about itself still holds;
      // never from a request refused for want of the device's credential (anyone may send one).
      if (health && primary && !credentialRefused) await noteHealthReport(ctx, primary, health);
    }
    // A receipt of what this answer committed, to an SDK that asked (issue 46).
    if (primary && request.headers[RECEIPTS_HEADER] === '1') {
      request.receipt = await receiptFor(ctx, primary, grouped, result.quarantined);
    }
    // How far the device's receipts go: what this server no longer holds is asked for again.
    const claim = request.headers[RECEIPTED_HEADER];
    const repair = primary && typeof claim === 'string' ? await repairCommandFor(ctx, request, primary, claim) : null;
    return {
      success: true,
      stored: result.stored,
      duplicates: result.duplicates,
      ...quarantineReply(result.quarantined),
      ...commandsReply(repair ? [...result.commands, repair] : result.commands),
    };
  });
}

/** Waypost's own upload routes: /locations, and the routes of other trackers (tracker-routes.ts). */
export const ingestRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  declarePublicFamily(plain, 'uploads, each with its device credential');
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const locations = locationsHandler(ctx, null);
  registerReceipts(plain, ctx, ['/locations', '/api/locations']);
  for (const url of ['/locations', '/api/locations']) {
    app.route({
      method: ['POST', 'PUT', 'PATCH'],
      url,
      schema: LOCATIONS_SCHEMA,
      config: INGEST_ROUTE,
      handler: locations,
    });
  }

  registerTrackerRoutes(plain, ctx);
};
