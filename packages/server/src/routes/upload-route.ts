import type { FastifyRequest } from 'fastify';
import { authenticateUpload } from '../auth/credential-gate.js';
import type { Principal } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { DEVICE_ANSWER_HELMET } from '../http/security-headers.js';
import type { Command } from '../store/commands.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An upload route: its answers advertise the request codings the server decodes, and its
     * refusals count as rejected records (app.ts). Routes mark themselves with INGEST_ROUTE.
     */
    ingest?: boolean;
  }
  interface FastifyRequest {
    /** Records an upload request was found to hold, once its body was read (0 before). */
    uploadRecords: number;
  }
}

/** The route config of every upload route: its answers are JSON to a device, with the API's security headers. */
export const INGEST_ROUTE = { ingest: true, helmet: DEVICE_ANSWER_HELMET } as const;

/**
 * What every upload route's schema gives its query: ?device_id= (text on Waypost's routes, any value
 * on the anchor's, whose contract never refused one: upload-routes.ts).
 */
export type UploadRequest = FastifyRequest & { query: { device_id?: unknown } };

/** Device named outside the body: the X-Device-Id header or ?device_id= (for bare-array bodies). */
export function deviceOutsideBody(request: UploadRequest): string | null {
  const header = request.headers['x-device-id'];
  if (typeof header === 'string' && header !== '') return header;
  const id = request.query.device_id;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** The token's device, when the upload carries a device token. */
export const tokenDevice = (principal: Principal): string | null =>
  principal.kind === 'device' ? principal.deviceId : null;

export function noDevice(): HttpError {
  return badRequest(
    'NO_DEVICE',
    'No device named: send a device access token, or a device_id (or device.uuid) param, or an X-Device-Id header',
  );
}

export function checkCount(ctx: AppContext, count: number): void {
  if (count > ctx.options.maxRecordsPerRequest) {
    throw new HttpError(
      413,
      'TOO_MANY_RECORDS',
      `The request holds ${count} records; this server takes at most ${ctx.options.maxRecordsPerRequest} per request (send smaller batches: http.maxBatchSize)`,
    );
  }
}

/** Quarantined records answered once at most this many (the count is always whole). */
const MAX_LISTED_QUARANTINED = 100;

/** `quarantined` and the first records kept in quarantine, when there are any (issue 19). */
export function quarantineReply(quarantined: { uuid: string | null; code: string }[]): Record<string, unknown> {
  return quarantined.length > 0
    ? { quarantined: quarantined.length, quarantinedRecords: quarantined.slice(0, MAX_LISTED_QUARANTINED) }
    : {};
}

export function commandsReply(commands: Command[]): Record<string, unknown> {
  return commands.length > 0 ? { background_geolocation: commands } : {};
}

export type UploadHandler<R extends FastifyRequest, T> = (
  request: R,
  principal: Principal,
  found: (records: number) => void,
) => Promise<T>;

/**
 * A route that takes uploads: the uploader is identified first (401 when tokens are required; for
 * a request with a body, before the body was read: auth/credential-gate.ts), and the records found
 * in the body are noted on the request, for the rejected-records count.
 */
export function uploadRoute<R extends FastifyRequest, T>(ctx: AppContext, handler: UploadHandler<R, T>) {
  return async (request: R): Promise<T> => {
    const principal = await authenticateUpload(ctx, request);
    return handler(request, principal, (n) => {
      request.uploadRecords = n;
    });
  };
}

export { UPLOAD_BODY, UPLOAD_REPLY } from './upload-schema.js';
