import { randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { deleteSession, insertSession, sessionIsLive } from '../store/sessions.js';
import { hashToken } from './tokens.js';

/** The dashboard's session cookie: opaque, HttpOnly, SameSite=Strict (no cross-site request carries it). */
export const SESSION_COOKIE = 'waypost_session';

/** An opaque id shaped like ours: anything else is not looked up. */
const SESSION_ID = /^[\w-]{43}$/;

function cookieOptions(request: FastifyRequest): CookieSerializeOptions {
  // request.protocol is https behind a proxy that says so, when trustProxy is on.
  return { httpOnly: true, sameSite: 'strict', path: '/', secure: request.protocol === 'https' };
}

/** Starts an admin session (the caller has shown the admin token) and sets its cookie. */
export async function startSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await insertSession(ctx.db, hashToken(id), now, now + ctx.options.sessionTtlSeconds * 1000);
  reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(request), maxAge: ctx.options.sessionTtlSeconds });
}

/** Whether the request carries the cookie of a live session. */
export async function hasSession(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  const id = request.cookies[SESSION_COOKIE];
  if (!id || !SESSION_ID.test(id)) return false;
  return sessionIsLive(ctx.db, hashToken(id), ctx.now());
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
  const id = request.cookies[SESSION_COOKIE];
  if (id && SESSION_ID.test(id)) await deleteSession(ctx.db, hashToken(id));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
