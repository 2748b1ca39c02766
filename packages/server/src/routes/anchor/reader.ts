import type { FastifyRequest } from 'fastify';
import { principalOf, wrongToken } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { parseTimestamp } from '../../ingest/normalize.js';
import type { ReadFilter, ReadScope } from '../../store/anchor-reads.js';
import type { FromSchema } from 'json-schema-to-ts';
import { limitParam } from '../query-params.js';
import type { READ_QUERY } from './schemas.js';
import type { ServerErrorCode } from '../../error-codes.js';

/** The anchor's refusal of a token refresh: 403 with `"status": 401` in the body. */
export const accessDenied = (message: string): HttpError =>
  new HttpError(403, 'ACCESS_DENIED', message, { status: 401 });

/**
 * The refusal of the read API: 401 on every mount (/api, /api/jwt, /api/site, /api/firebase), as
 * Waypost's own admin API answers, with the anchor's `"status": 401` kept in the body for its
 * clients (the anchor's server sent that body with a 403).
 */
const readDenied = (message: string, code: ServerErrorCode = 'ACCESS_DENIED'): HttpError =>
  new HttpError(401, code, message, { status: 401 });

/** What the caller may read: the admin everything, an org's token its org, a device itself. */
export async function readScopeOf(ctx: AppContext, request: FastifyRequest): Promise<ReadScope> {
  let principal;
  try {
    principal = await principalOf(ctx, request);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 401) throw readDenied(error.message);
    throw error;
  }
  if (principal.kind === 'admin') return { kind: 'all' };
  if (principal.kind === 'org') return { kind: 'org', org: principal.org };
  if (principal.kind === 'device') return { kind: 'device', deviceId: principal.deviceId };
  if (request.headers.authorization?.replace(/^Bearer\s*/i, '').trim()) {
    throw readDenied(wrongToken().message, 'WRONG_TOKEN');
  }
  throw readDenied('Authorization Bearer not found');
}

/** The read API's filters, as its routes' schema types them. */
export type ReadQuery = FromSchema<typeof READ_QUERY>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A date parameter; a bare date (the anchor's dashboard sends those) covers its whole UTC day. */
function dateParam(query: ReadQuery, name: 'start_date' | 'end_date'): number | null {
  const raw = query[name];
  if (raw === undefined || raw === '') return null;
  const ms = parseTimestamp(raw);
  if (ms === null) {
    throw badRequest('INVALID_PARAMETER', `${name} must be a date, ISO-8601 or epoch seconds/milliseconds, got ${raw}`);
  }
  return name === 'end_date' && DATE_ONLY.test(raw.trim()) ? ms + DAY_MS - 1 : ms;
}

export function readFilter(query: ReadQuery): ReadFilter {
  const deviceId = query.device_id === undefined || query.device_id === '' ? null : query.device_id;
  return { deviceId, from: dateParam(query, 'start_date'), to: dateParam(query, 'end_date') };
}

/** `limit` of the anchor's reads, as Waypost's exports take it. */
export const readLimit = limitParam;
