import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ruleOf } from '../accounts/route-rules.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { noteExpiredToken, refuseRevokedToken } from '../health/refused-credentials.js';
import { hasBody } from '../http/body-guards.js';
import { uploaderOf } from './device-credential.js';
import { bearerOf, requireAdmin, wrongDeviceToken, type Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a device's upload (uploaderOf's rules): its credential is checked before the body. */
    upload?: boolean;
    /** Uploads on this route need a device token, whatever requireTokens says (the anchor's v2 API). */
    deviceTokenRequired?: boolean;
    /**
     * The route's own credential check, for a route outside the role rules that still takes only
     * some callers (the anchor's org tokens, refreshes and reads): it throws the refusal. The gate
     * runs it before the body; the handler runs it (or its memo) again, for requests without one.
     */
    credential?: (request: FastifyRequest) => Promise<unknown>;
  }
  interface FastifyRequest {
    /** The uploader, once authenticateUpload found it (before the body, when there is one). */
    uploader: Principal | null;
  }
}

/**
 * Who uploads, or the refusal: an org token 403, a missing device token 401 TOKEN_REQUIRED (with
 * requireTokens, or on a route that requires one), an expired or revoked device token 401 (noted
 * on the device, issue 31). The one place that decides an uploader's credential.
 */
export async function authenticateUpload(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  if (request.uploader) return request.uploader;
  const principal = await uploaderOf(ctx, request).catch(async (error: unknown) => {
    await noteExpiredToken(ctx, request, error);
    throw error;
  });
  await refuseRevokedToken(ctx, request, principal);
  if (request.routeOptions.config.deviceTokenRequired && principal.kind !== 'device') {
    // A token was sent and it is none of this server's: "wrong", not "send one" (issue 40.8).
    if (bearerOf(request) !== null) throw wrongDeviceToken();
    throw new HttpError(
      401,
      'TOKEN_REQUIRED',
      'This route takes a device access token: register at POST /api/register',
    );
  }
  request.uploader = principal;
  return principal;
}

/**
 * Credentials are headers, known before the body: a request its credential refuses is refused
 * before its body is read, inflated, decoded or parsed (issue 45: a tokenless gzip or columnar
 * bomb cost a server with requireTokens up to 1.4 s of CPU before its 401). Upload routes check
 * the uploader (the handler then reads request.uploader); routes with a check of their own
 * (route config `credential`) that check; operator routes (those with a role rule,
 * accounts/route-rules.ts) the admin or a user. The refusal is thrown, so it takes the
 * normal reply path (error handler, onSend and onResponse hooks), with the codes the handler
 * would have answered. Requests without a body are left to the handler: nothing to spare there.
 */
export function registerCredentialGate(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('uploader', null);
  // A callback hook, not an async one: one promise less per upload, none for a request it leaves.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!hasBody(request)) return done(null, payload);
    const config = request.routeOptions.config;
    const check =
      config.ingest === true || config.upload === true
        ? authenticateUpload(ctx, request)
        : config.credential
          ? config.credential(request)
          : ruleOf(request)
            ? requireAdmin(ctx, request)
            : null;
    if (check === null) return done(null, payload);
    check.then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  });
}
