import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { UserPrincipal } from '../accounts/roles.js';
import { checkUserAccess } from '../accounts/user-access.js';
import { isCrossOriginWrite, sessionOf } from './sessions.js';
import { looksLikeJwt } from './tokens.js';

/**
 * Who is calling. `admin` comes by the admin token (`secret`), the dashboard's session cookie (`session`) or an
 * admin login token (`jwt`, POST /api/site/auth); `org` is
 * an org's read-only dashboard token; a device registered through an org carries its org.
 */
export type Principal =
  | { kind: 'admin'; via: 'secret' | 'session' | 'jwt' }
  | { kind: 'device'; deviceId: string; org: string | null; issuedAt?: number }
  | { kind: 'org'; org: string }
  | UserPrincipal
  | { kind: 'anonymous' };

/**
 * The anchor's SDK uploads with this token when it could not register (offline at first launch);
 * the anchor answers 406 so that it registers again.
 */
export const DUMMY_TOKEN = 'DUMMY_TOKEN';

export type { UserPrincipal };

/** Constant-time comparison of two secrets. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Bearer <token>` (JWT strategy) or the bare token (SAS strategy). */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header || /^\s*Bearer\s*$/i.test(header)) return null; // "Bearer " with nothing: none sent
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (match ? match[1]! : header).trim() || null;
}

/**
 * Who is calling: the admin (admin token, or the dashboard's session cookie), a device (valid
 * access token) or nobody. A token that looks like one of our JWTs but does not verify is a 401,
 * so the SDK refreshes it; other Authorization values are ignored (an integrator's own API key,
 * say) unless tokens are required. Credentials never come from the URL: URLs end up in logs,
 * history and Referer headers.
 *
 * Resolved once per request (issue 44): the role gate, the audit trail and the route's own gate all
 * ask, and all get the same answer (or the same refusal) from one lookup.
 */
export function principalOf(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  let caller = callers.get(request);
  if (!caller) {
    caller = lookUpPrincipal(ctx, request);
    callers.set(request, caller);
  }
  return caller;
}

/** Each request's caller, as looked up at its first question; gone with the request. */
const callers = new WeakMap<FastifyRequest, Promise<Principal>>();

async function lookUpPrincipal(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const token = bearerOf(request);
  if (!token) {
    const session = isCrossOriginWrite(request) ? null : await sessionOf(ctx, request);
    if (!session) return { kind: 'anonymous' };
    if (session.user === null) return { kind: 'admin', via: 'session' };
    // Read on every request (with the session, in one query): a role changed or a user removed
    // counts at once (their sessions also end).
    const user = session.account;
    if (!user) return { kind: 'anonymous' };
    return { kind: 'user', name: user.name, role: user.role, orgs: user.orgs, groups: user.groups };
  }
  if (sameSecret(token, ctx.options.adminToken)) return { kind: 'admin', via: 'secret' };
  if (token === DUMMY_TOKEN) {
    throw new HttpError(406, 'REGISTRATION_REQUIRED', 'This device has no token yet: register (POST /api/register)');
  }
  if (!looksLikeJwt(token)) return { kind: 'anonymous' };
  const subject = await ctx.tokens.verify(token);
  return subject.kind === 'admin' ? { kind: 'admin', via: 'jwt' } : subject;
}

/**
 * The gate of every operator route: the admin (token, admin session, login token) may do anything;
 * a user what the route's declared access (config.access) allows their role, inside their orgs (a
 * public route is refused to users here). Returns the caller.
 */
export async function requireAdmin(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ kind: 'admin' } | UserPrincipal> {
  const principal = await principalOf(ctx, request);
  if (principal.kind === 'anonymous' && bearerOf(request) !== null) throw wrongToken();
  if (principal.kind === 'admin') return principal;
  if (principal.kind === 'user') {
    await checkUserAccess(ctx, request, principal);
    return principal;
  }
  if (principal.kind === 'device' || principal.kind === 'org') {
    throw new HttpError(
      403,
      'FORBIDDEN',
      principal.kind === 'device'
        ? 'A device token may only upload (POST /api/locations, POST /api/logs)'
        : 'An org token may only read its org (the /api/site and /api/jwt read routes)',
    );
  }
  throw new HttpError(
    401,
    'ADMIN_TOKEN_REQUIRED',
    'Send the admin token (Authorization: Bearer <adminToken>) or log in at POST /api/session',
  );
}

/**
 * A token was sent and it is none of this server's: most often yesterday's admin token (another
 * --admin-token, or a new token file), so the answer says "wrong", not "send one".
 */
export const wrongToken = (): HttpError =>
  new HttpError(
    401,
    'WRONG_TOKEN',
    "The token sent is not this server's admin token, nor a valid device or org token (was the server given another admin token?)",
  );

/** An upload's token is none of this server's device tokens (a typo, another server's, a lost reset). */
export const wrongDeviceToken = (): HttpError =>
  new HttpError(
    401,
    'WRONG_TOKEN',
    "The token sent is not a device access token of this server: check the device's token (or register at POST /api/register for a new one)",
  );
