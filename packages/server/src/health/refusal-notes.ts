import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatHealthHeader, HEALTH_HEADER, MAX_HEALTH_HEADER_CHARS, type HealthReport } from '@waypost/sdk/internal';
import { presentedKey } from '../auth/device-credential.js';
import { bearerOf } from '../auth/principal.js';
import { hashToken, looksLikeJwt } from '../auth/tokens.js';
import type { AppContext } from '../context.js';
import { findDeviceKey } from '../store/device-keys.js';
import type { Cause } from './decide-state.js';
import { healthReportOf, nameAndRecord } from './health-service.js';
import { refusalCause } from './refusal-cause.js';
import { REFUSED_NOTE_EVERY_MS } from './refused-credentials.js';

/**
 * Every refusal of an upload is read with the report it came with (issue 39): a device that
 * reaches the server and is refused, before its handler (size, depth, content type, rate limit)
 * or in it, is named `failing` (or `waiting` when told to wait) with the refusal's cause at once,
 * certain: the server saw it. Without this, a device refused more than once a second looked
 * "live" for an hour, then "no network".
 *
 * Bounded: only the report header is parsed (at most 512 characters), never the refused body;
 * the device is the one its credentials name (a token this server signed, or a device key in
 * force, checked) or, on a server that takes uploads without tokens, the one named outside the
 * body (X-Device-Id, ?device_id=, or the report's `dev`, which the SDK sets to the name its body
 * gives), unless that device holds a credential: anyone can name it, so an anonymous refusal
 * never hides a credentialed device's real state (its anonymous uploads are refused anyway). A device
 * refused a hundred times a second costs one map look-up per refusal, and a write once per
 * REFUSED_NOTE_EVERY_MS (or when the cause changes); only an existing, active device is written.
 * A successful upload never comes here.
 */

/** Refusals already noted by the credentials check (health/refused-credentials.ts), with its own rules. */
const NOTED_BY_CREDENTIALS = new Set(['TOKEN_REVOKED', 'TOKEN_EXPIRED', 'KEY_REVOKED']);
/** Waypost's own upload routes, where a device named outside the body is named by its id. */
const OWN_ROUTES = new Set(['/locations', '/api/locations']);
/** Devices remembered for the per-device throttle before the memory is cleared (bounded). */
const MAX_REMEMBERED = 10_000;
/** The report's device name as sent (for the throttle's key, before the report is parsed). */
const DEV = /(?:^|,)\s*dev="([^"\\]{1,64})"/;
/** An error answer's code, read from the answer the server sends (never the request). */
const CODE = /"code":"([A-Z0-9_]{1,64})"/;

interface Refused {
  deviceId: string;
  /** How the request named it: by a checked token or key, or only by a name anyone could give. */
  by: 'token' | 'key' | 'name';
  /** A device token's issue time: a token issued before a revocation writes nothing. */
  issuedAt: number | null;
}

/** The device a refused request is from, without reading its body; null when it names none we trust. */
async function refusedDevice(
  ctx: AppContext,
  request: FastifyRequest,
  status: number,
  report: HealthReport | null,
): Promise<Refused | null> {
  // A device key, wherever a tracker carries it (Bearer, Basic, ?key=): the device of a key in force.
  const key = presentedKey(request.headers, request.query);
  if (key !== null) {
    const lookup = await findDeviceKey(ctx.db, hashToken(key.key));
    return lookup && !lookup.revoked ? { deviceId: lookup.deviceId, by: 'key', issuedAt: null } : null;
  }
  const token = bearerOf(request);
  if (token !== null) {
    if (!looksLikeJwt(token)) return null;
    const subject = await ctx.tokens.verify(token).catch(() => null);
    return subject?.kind === 'device'
      ? { deviceId: subject.deviceId, by: 'token', issuedAt: subject.issuedAt ?? 0 }
      : null;
  }
  // Without credentials, a name is only as good as an upload's: not when tokens are required,
  // and a 401 to a request without any says nothing about the device it names.
  if (ctx.options.requireTokens || status === 401 || !OWN_ROUTES.has(request.routeOptions.url ?? '')) return null;
  const header = request.headers['x-device-id'];
  const query = (request.query ?? {}) as Record<string, unknown>;
  // The header, the query, else the name its report gives (`dev`, the name its body gives).
  const name = typeof header === 'string' && header !== '' ? header : (query.device_id ?? report?.device);
  return typeof name === 'string' && name !== '' && name.length <= 256
    ? { deviceId: name, by: 'name', issuedAt: null }
    : null;
}

/** Writes the refusal for an active device, at most once per interval per cause; true when written. */
async function saveRefusal(
  ctx: AppContext,
  refused: Refused,
  what: { cause: Cause; code: string; report: string | null },
): Promise<boolean> {
  const now = ctx.now();
  const every = Math.min(REFUSED_NOTE_EVERY_MS, ctx.options.fleet.silentAfterMs / 2);
  const cause = `COALESCE(refused_cause, 'auth-refused') <> ?`;
  // A token issued before a revocation writes nothing; a mere name never writes a credentialed device.
  const trust =
    refused.by === 'token'
      ? 'AND (tokens_revoked_at IS NULL OR tokens_revoked_at < ?)'
      : refused.by === 'name'
        ? 'AND credentialed_at IS NULL'
        : '';
  const written = await ctx.db.run(
    `UPDATE devices SET
       auth_refused_since = CASE WHEN auth_refused_at IS NULL OR auth_refused_at < COALESCE(last_seen, 0) OR ${cause}
         THEN ? ELSE auth_refused_since END,
       auth_refused_at = ?, auth_refused_code = ?, auth_refused_report = ?, refused_cause = ?
     WHERE id = ? AND status = 'active'
       ${trust}
       AND (auth_refused_at IS NULL OR auth_refused_at <= ? OR auth_refused_at < COALESCE(last_seen, 0) OR ${cause})`,
    [
      what.cause,
      now,
      now,
      what.code,
      what.report,
      what.cause,
      refused.deviceId,
      ...(refused.by === 'token' ? [refused.issuedAt ?? 0] : []),
      now - every,
      what.cause,
    ],
  );
  return written > 0;
}

/** What names the device of a request outside its body (its key, token, or the name it gives), as sent. */
function claimOf(request: FastifyRequest): string {
  // A key in the URL (OsmAnd, Traccar Client) is the claim: two such devices are not one.
  const key = presentedKey(request.headers, request.query);
  if (key !== null) return key.key;
  const token = bearerOf(request);
  if (token !== null) return token;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const report = request.headers[HEALTH_HEADER];
  const dev = typeof report === 'string' ? (DEV.exec(report.slice(0, MAX_HEALTH_HEADER_CHARS))?.[1] ?? '') : '';
  return `${String(request.headers['x-device-id'] ?? '')}|${String(query.device_id ?? '')}|${dev}`;
}

/**
 * The per-process throttle, by what the request claims: a device refused again within the
 * interval, for the same cause, is skipped; an accepted upload forgets it (its next refusal is new).
 */
function createThrottle(everyMs: () => number) {
  const last = new Map<string, { at: number; cause: Cause }>();
  return {
    mayWrite(request: FastifyRequest, cause: Cause, now: number): boolean {
      const key = claimOf(request);
      const seen = last.get(key);
      if (seen && seen.cause === cause && now - seen.at < everyMs()) return false;
      if (last.size >= MAX_REMEMBERED) last.clear();
      last.set(key, { at: now, cause });
      return true;
    },
    accepted(request: FastifyRequest): void {
      if (last.size > 0) last.delete(claimOf(request));
    },
  };
}
type Throttle = ReturnType<typeof createThrottle>;

/** Notes one refused upload (its answer about to be sent). */
async function noteRefusal(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
  throttle: Throttle,
): Promise<void> {
  const status = reply.statusCode;
  const cause = refusalCause(status, reply.hasHeader('retry-after'));
  // The throttle is asked first: the 100th refusal of a second costs a map look-up, no signature check.
  if (!throttle.mayWrite(request, cause, ctx.now())) return;
  const report = healthReportOf(request);
  const refused = await refusedDevice(ctx, request, status, report);
  if (refused === null) return;
  const text = report === null ? null : formatHealthHeader(report);
  if (await saveRefusal(ctx, refused, { cause, code, report: text })) await nameAndRecord(ctx, refused.deviceId);
}

/** The hook on every upload route's answers: a refusal (status >= 400) is noted before it is sent. */
export function registerRefusalNotes(app: FastifyInstance, ctx: AppContext): void {
  const throttle = createThrottle(() => Math.min(REFUSED_NOTE_EVERY_MS, ctx.options.fleet.silentAfterMs / 2));
  // A callback hook, not an async one: no promise per accepted upload.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.ingest !== true) return done(null, payload);
    if (reply.statusCode < 400) {
      throttle.accepted(request);
      return done(null, payload);
    }
    // A request whose body never arrived whole was cut on its way (a proxy, a dropped link): the
    // device hears no answer, and the refusal is the cut's, not of its records (issue 39).
    if (request.raw.readableAborted) return done(null, payload);
    const code =
      (typeof payload === 'string' ? CODE.exec(payload.slice(0, 2048))?.[1] : undefined) ?? `HTTP_${reply.statusCode}`;
    if (NOTED_BY_CREDENTIALS.has(code)) return done(null, payload);
    noteRefusal(ctx, request, reply, code, throttle).then(
      () => done(null, payload),
      (error: unknown) => {
        request.log.error({ err: error, code: 'REFUSAL_NOTE_FAILED' }, 'a refused upload could not be noted');
        done(null, payload);
      },
    );
  });
}
