import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { hasSession, isCrossOriginWrite } from './sessions.js';
import { looksLikeJwt } from './tokens.js';

export type Principal = { kind: 'admin' } | { kind: 'device'; deviceId: string } | { kind: 'anonymous' };

/** Constant-time comparison of two secrets. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Bearer <token>` (JWT strategy) or the bare token (SAS strategy). */
function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (match ? match[1]! : header).trim() || null;
}

/**
 * Who is calling: the admin (admin token, or the dashboard's session cookie), a device (valid
 * access token) or nobody. A token that looks like one of our JWTs but does not verify is a 401,
 * so the SDK refreshes it; other Authorization values are ignored (an integrator's own API key,
 * say) unless tokens are required. Credentials never come from the URL: URLs end up in logs,
 * history and Referer headers.
 */
export async function principalOf(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const token = bearerOf(request);
  if (!token) {
    const session = !isCrossOriginWrite(request) && (await hasSession(ctx, request));
    return session ? { kind: 'admin' } : { kind: 'anonymous' };
  }
  if (sameSecret(token, ctx.options.adminToken)) return { kind: 'admin' };
  if (looksLikeJwt(token)) return { kind: 'device', deviceId: await ctx.tokens.verify(token) };
  return { kind: 'anonymous' };
}

export async function requireAdmin(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const principal = await principalOf(ctx, request);
  if (principal.kind === 'admin') return;
  if (principal.kind === 'device') {
    throw new HttpError(403, 'FORBIDDEN', 'A device token may only upload (POST /api/locations, POST /api/logs)');
  }
  throw new HttpError(
    401,
    'ADMIN_TOKEN_REQUIRED',
    'Send the admin token (Authorization: Bearer <adminToken>) or log in at POST /api/session',
  );
}

/** The uploading device's principal; 401 when tokens are required and none was sent. */
export async function uploaderOf(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const principal = await principalOf(ctx, request);
  if (ctx.options.requireTokens && principal.kind !== 'device') {
    throw new HttpError(
      401,
      'TOKEN_REQUIRED',
      'This server requires a device access token: register at POST /auth/register',
    );
  }
  return principal;
}
