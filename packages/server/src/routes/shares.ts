import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { deviceInScope } from '../accounts/scope-filter.js';
import { deviceScopeSql } from '../accounts/scope-sql.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { refuseUnknownKeys } from '../http/unknown-keys.js';
import { isoOrNull } from '../iso-time.js';
import { findDevice } from '../store/devices.js';
import {
  deleteShare,
  deviceOfShare,
  insertShare,
  listShares,
  shareByTokenHash,
  type ShareRow,
} from '../store/shares.js';
import { trackPoints } from '../store/track-queries.js';
import { MAX_ZOOM, MIN_ZOOM, simplifyTrips } from '../tracks/simplify-track.js';
import { splitTrips } from '../tracks/split-trips.js';
import { MAX_TRACK_READ, MAX_TRIPS } from './dashboard-api.js';
import { integerParam, timeParam } from './query-params.js';
import {
  CREATE_SHARE_SCHEMA,
  DELETE_SHARE_SCHEMA,
  LIST_SHARES_SCHEMA,
  SHARE,
  SHARE_PAGE_SCHEMA,
  SHARED_TRACK_SCHEMA,
} from './schemas/shares.js';
import { ACCESS } from '../accounts/route-rules.js';

/** A share link lives at most this long. */
export const MAX_SHARE_MS = 366 * 86_400_000;
const SHARE_PAGE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'share', 'index.html');
/** The token: 256 random bits, base64url. Only its SHA-256 is stored; the request log never sees it. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A time from a JSON body: ISO-8601 or epoch ms/s, as the query parameters take them. */
function bodyTime(body: Record<string, unknown>, name: string): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && typeof value !== 'number')
    throw badRequest('INVALID_PARAMETER', `${name} must be ISO-8601 or epoch milliseconds`);
  return timeParam({ [name]: String(value) }, name);
}

function shareJson(row: ShareRow, now: number): FromSchema<typeof SHARE> {
  return {
    id: row.id,
    device: row.device_id,
    from: row.from_ms === null ? null : isoOrNull(row.from_ms),
    to: row.to_ms === null ? null : isoOrNull(row.to_ms),
    expiresAt: isoOrNull(row.expires_at),
    createdAt: isoOrNull(row.created_at),
    deletedAt: row.deleted_at === null ? null : isoOrNull(row.deleted_at),
    active: row.deleted_at === null && row.expires_at > now,
  };
}

/**
 * Share links (issue 22). `POST /api/shares { device, from?, to?, expiresAt }` (admin) answers
 * `{ id, url }`; the URL (`/s/<token>`) opens a read-only map of that device's track in that
 * window, without a login and showing nothing else; `DELETE /api/shares/:id` (admin) ends it, and
 * after that or after expiresAt the page and its data answer 410.
 */
export const shareRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  // A user limited to orgs shares, lists and ends only their orgs' devices' links (issue 33).
  app.post('/api/shares', { config: ACCESS.operator.filtered, schema: CREATE_SHARE_SCHEMA }, async (request, reply) => {
    const reader = await requireAdmin(ctx, request);
    const body = request.body ?? {};
    refuseUnknownKeys(body, ['device', 'from', 'to', 'expiresAt'], 'a share');
    if (
      typeof body.device !== 'string' ||
      !(await findDevice(ctx.db, body.device)) ||
      !(await deviceInScope(ctx, reader, body.device))
    )
      throw new HttpError(404, 'UNKNOWN_DEVICE', 'No such device on this server');
    const now = ctx.now();
    const from = bodyTime(body, 'from');
    const to = bodyTime(body, 'to');
    const expiresAt = bodyTime(body, 'expiresAt');
    if (expiresAt === null) throw badRequest('MISSING_PARAMETER', 'expiresAt is required');
    if (expiresAt <= now || expiresAt > now + MAX_SHARE_MS)
      throw badRequest('INVALID_PARAMETER', 'expiresAt must be in the future, at most 366 days ahead');
    if (from !== null && to !== null && from > to) throw badRequest('INVALID_PARAMETER', 'from must not be after to');
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    await insertShare(ctx.db, {
      id,
      token_hash: hashToken(token),
      device_id: body.device,
      from_ms: from,
      to_ms: to,
      expires_at: expiresAt,
      created_at: now,
    });
    const origin = `${request.protocol}://${request.host}`;
    return reply.code(201).send({ id, url: `${origin}/s/${token}`, expiresAt: isoOrNull(expiresAt) });
  });

  app.get('/api/shares', { config: ACCESS.viewer.filtered, schema: LIST_SHARES_SCHEMA }, async (request) => {
    const scope = deviceScopeSql(await requireAdmin(ctx, request), 'device_id');
    const limit = integerParam(request.query, 'limit', 1, 1000, 100);
    const now = ctx.now();
    const rows = await listShares(ctx.db, request.query.device ?? null, limit, scope);
    return rows.map((row) => shareJson(row, now));
  });

  app.delete(
    '/api/shares/:id',
    { config: ACCESS.operator.filtered, schema: DELETE_SHARE_SCHEMA },
    async (request, reply) => {
      const reader = await requireAdmin(ctx, request);
      const device = await deviceOfShare(ctx.db, request.params.id);
      const mine = device !== null && (await deviceInScope(ctx, reader, device));
      if (!mine || !(await deleteShare(ctx.db, request.params.id, ctx.now())))
        throw new HttpError(404, 'UNKNOWN_SHARE', 'No live share link with this id');
      return reply.code(204).send(null);
    },
  );

  /** The share a token opens: 404 for no such token, 410 once it expired or was deleted. */
  const shareOf = async (token: string, reply: FastifyReply): Promise<ShareRow> => {
    reply.header('cache-control', 'no-store');
    const share = TOKEN_PATTERN.test(token) ? await shareByTokenHash(ctx.db, hashToken(token)) : null;
    if (!share) throw new HttpError(404, 'UNKNOWN_SHARE', 'No such share link');
    if (share.deleted_at !== null || share.expires_at <= ctx.now())
      throw new HttpError(410, 'SHARE_GONE', 'This share link has expired or was withdrawn');
    return share;
  };

  app.get('/s/:token', { config: ACCESS.public, schema: SHARE_PAGE_SCHEMA }, async (request, reply) => {
    const page = await readFile(SHARE_PAGE, 'utf8');
    // shareOf answers only these: its 404 and 410 are the page's own (SHARE_PAGE_SCHEMA).
    let status: 200 | 404 | 410 = 200;
    try {
      await shareOf(request.params.token, reply);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      status = error.statusCode === 410 ? 410 : 404; // the page itself says the link is gone
    }
    return reply.code(status).type('text/html; charset=utf-8').send(page);
  });

  app.get('/s/:token/track', { config: ACCESS.public, schema: SHARED_TRACK_SCHEMA }, async (request, reply) => {
    const share = await shareOf(request.params.token, reply);
    const zoom = integerParam(request.query, 'zoom', MIN_ZOOM, MAX_ZOOM, 14);
    const range = { deviceId: share.device_id, from: share.from_ms, to: share.to_ms };
    const points = await trackPoints(ctx.db, range, MAX_TRACK_READ);
    const trips = simplifyTrips(splitTrips(points).slice(-MAX_TRIPS), zoom);
    const device = await findDevice(ctx.db, share.device_id);
    // What the link shows, and nothing else: a label, the window, the track.
    return {
      name: device?.name ?? null,
      from: share.from_ms,
      to: share.to_ms,
      expiresAt: share.expires_at,
      newest: points[points.length - 1] ?? null,
      trips: trips.map((trip) => trip.map((p) => [p.lat, p.lon, p.t])),
    };
  });
};
