import { randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { deleteSession, insertSession, liveSession } from '../store/sessions.js';
import type { UserRow } from '../store/users.js';
import { hashToken } from './tokens.js';

/** The dashboard's session cookie: opaque, HttpOnly, SameSite=Strict (no cross-site request carries it). */
export const SESSION_COOKIE = 'waypost_session';

/** An opaque id shaped like ours: anything else is not looked up. */
const SESSION_ID = /^[\w-]{43}$/;

function cookieOptions(request: FastifyRequest): CookieSerializeOptions {
  // request.protocol is https behind a proxy that says so, when trustProxy is on.
  return { httpOnly: true, sameSite: 'strict', path: '/', secure: request.protocol === 'https' };
}

/** The hash of the request's session id as stored, or null when it carries none shaped like ours. */
export function sessionIdHashOf(request: FastifyRequest): string | null {
  const id = request.cookies[SESSION_COOKIE];
  return id && SESSION_ID.test(id) ? hashToken(id) : null;
}

/**
 * Starts a session (the caller has shown the admin token, or `user`'s password) and sets its
 * cookie. The id is always a new random one and whatever session the request carried ends: an id
 * planted in the browser before the login (session fixation) never becomes a logged-in session.
 */
export async function startSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: string | null = null,
): Promise<void> {
  const previous = sessionIdHashOf(request);
  if (previous) await deleteSession(ctx.db, previous);
  const id = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await insertSession(ctx.db, hashToken(id), now, now + ctx.options.sessionTtlSeconds * 1000, user);
  reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(request), maxAge: ctx.options.sessionTtlSeconds });
}

/** The request's live session (`user` null: opened with the admin token) with its user's row, or null. */
export async function sessionOf(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ user: string | null; account: UserRow | null } | null> {
  const idHash = sessionIdHashOf(request);
  return idHash ? liveSession(ctx.db, idHash, ctx.now()) : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request that would act on the session's authority changes something and comes from
 * another origin. SameSite=Strict already keeps the cookie off cross-site requests; this also
 * refuses same-site but cross-origin ones (a sibling subdomain), by the browser's own Origin and
 * Sec-Fetch-Site headers. Clients that send neither (curl) are not browsers being abused.
 */
export function isCrossOriginWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== `${request.protocol}://${request.host}`;
}

/** Ends the request's session (if any) and clears its cookie. */
export async function endSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const idHash = sessionIdHashOf(request);
  if (idHash) await deleteSession(ctx.db, idHash);
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
