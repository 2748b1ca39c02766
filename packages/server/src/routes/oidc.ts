import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { appendAudit } from '../audit/audit-store.js';
import { startSession } from '../auth/sessions.js';
import { hashToken } from '../auth/tokens.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { userOfClaims } from '../oidc/claims.js';
import { finishLogin, providerOf, startLogin } from '../oidc/oidc-client.js';
import { savePendingLogin, takePendingLogin } from '../oidc/login-store.js';
import { syncSsoUser } from '../oidc/sso-user.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import type { ServerErrorCode } from '../error-codes.js';
import { failures } from '../http/route-schema.js';
import { text } from './schemas/common.js';

/** A redirect: where the browser goes next. */
const redirect = (description: string) =>
  ({ type: 'null', description, headers: { location: text('Where the browser goes next') } }) as const;
const LOGIN_SCHEMA = {
  summary: "Starts a single sign-on: redirects the browser to the provider's login",
  response: {
    303: redirect("To the provider's login, with a one-use cookie binding its answer to this browser"),
    ...failures('OIDC_OFF', 'OIDC_UNAVAILABLE', 'RATE_LIMITED'),
  },
} as const;
const CALLBACK_SCHEMA = {
  summary: "The provider's answer: checks it, opens a dashboard session and redirects to the dashboard",
  querystring: {
    type: 'object',
    properties: {
      code: text('The authorization code'),
      state: text('The state the login was started with'),
      iss: text('The issuer (RFC 9207)'),
      error: text("The provider's refusal, instead of a code"),
      error_description: text("The provider's words for it"),
    },
  },
  response: {
    303: redirect('To the dashboard, with the session cookie set'),
    ...failures(
      'OIDC_OFF',
      'OIDC_UNAVAILABLE',
      'OIDC_NO_LOGIN',
      'OIDC_REFUSED',
      'OIDC_NO_USER',
      'OIDC_NO_ROLE',
      'OIDC_NO_SCOPE',
      'RATE_LIMITED',
    ),
  },
} as const;

/** The browser's cookie for a login under way: what binds the provider's callback to this browser. */
export const OIDC_COOKIE = 'waypost_oidc';
const CALLBACK_PATH = '/api/oidc/callback';
/** How long a login may stay at the provider's pages. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
/** Log code of a single sign-on the server refused (with the reason, never a token). */
export const OIDC_LOGIN_REFUSED = 'OIDC_LOGIN_REFUSED';

/**
 * Single sign-on (issue 33): OpenID Connect's authorization code flow with PKCE, by openid-client.
 * GET /api/oidc/login sends the browser to the provider with a fresh state, nonce and PKCE
 * challenge (kept on this server under the hash of a one-use HttpOnly cookie); the provider sends
 * it back to GET /api/oidc/callback, where the code is exchanged with the verifier and state and
 * nonce are checked. The claims make the user's role and scope (oidc/claims.ts), replaced at each
 * login, and a dashboard session starts as for a password login.
 */
export const oidcRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  declarePublicFamily(app, 'the single sign-on login');
  const oidc = ctx.options.oidc;
  const provider = oidc ? providerOf(oidc) : null;
  const redirectUriOf = (request: FastifyRequest): string =>
    oidc?.redirectUri ?? `${request.protocol}://${request.host}${CALLBACK_PATH}`;
  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation from its site.
    sameSite: 'lax' as const,
    path: '/api/oidc',
    secure: request.protocol === 'https',
  });
  const configured = () => {
    if (!oidc || !provider) throw new HttpError(404, 'OIDC_OFF', 'Single sign-on is not configured on this server');
    return { oidc, provider };
  };
  const providerConfig = async (request: FastifyRequest) => {
    try {
      return await configured().provider();
    } catch (error) {
      request.log.error({ code: 'OIDC_UNAVAILABLE', err: error }, 'single sign-on: provider discovery failed');
      throw new HttpError(502, 'OIDC_UNAVAILABLE', 'The single sign-on provider could not be reached');
    }
  };

  app.get('/api/oidc/login', { config: { rateLimitScope: 'login' }, schema: LOGIN_SCHEMA }, async (request, reply) => {
    const { oidc } = configured();
    const config = await providerConfig(request);
    const login = await startLogin(config, oidc, redirectUriOf(request));
    const id = randomBytes(32).toString('base64url');
    const now = ctx.now();
    await savePendingLogin(ctx.db, hashToken(id), { ...login, expires_at: now + LOGIN_TTL_MS }, now);
    reply.setCookie(OIDC_COOKIE, id, { ...cookieOptions(request), maxAge: LOGIN_TTL_MS / 1000 });
    return reply.redirect(login.url.href, 303);
  });

  app.get(
    '/api/oidc/callback',
    { config: { rateLimitScope: 'login' }, schema: CALLBACK_SCHEMA },
    async (request, reply) => {
      const { oidc } = configured();
      const refuse = async (
        status: number,
        code: ServerErrorCode,
        message: string,
        cause?: unknown,
      ): Promise<never> => {
        request.log.warn({ code: OIDC_LOGIN_REFUSED, reason: code, err: cause }, `single sign-on refused: ${message}`);
        await audit(request, 'anonymous', status, { refused: code });
        throw new HttpError(status, code, message);
      };
      const cookie = request.cookies[OIDC_COOKIE];
      // One use, whatever happens next: a replayed callback finds nothing.
      reply.clearCookie(OIDC_COOKIE, cookieOptions(request));
      const pending = cookie ? await takePendingLogin(ctx.db, hashToken(cookie), ctx.now()) : null;
      if (!pending) {
        return refuse(
          400,
          'OIDC_NO_LOGIN',
          'No single sign-on was started in this browser (or it expired): start again',
        );
      }
      const config = await providerConfig(request);
      const callback = new URL(redirectUriOf(request));
      callback.search = new URL(request.url, 'http://x').search;
      let claims: Record<string, unknown>;
      try {
        claims = await finishLogin(config, callback, pending);
      } catch (error) {
        const message = refusalOf(error);
        return refuse(401, 'OIDC_REFUSED', `The provider's answer was refused: ${message}`, error);
      }
      const user = userOfClaims(oidc, claims);
      if (!user.ok) return refuse(403, user.code, user.message);
      await syncSsoUser(ctx.db, user, ctx.now());
      await startSession(ctx, request, reply, user.name);
      await audit(request, `user:${user.name}`, 303, { role: user.role, orgs: user.orgs, groups: user.groups });
      return reply.redirect('/', 303);
    },
  );

  const audit = (request: FastifyRequest, actor: string, status: number, detail: object) =>
    appendAudit(ctx.db, {
      at: ctx.now(),
      actor,
      address: request.ip,
      action: 'GET /api/oidc/callback',
      target: null,
      status,
      detail: JSON.stringify(detail),
    }).catch((err: unknown) => request.log.error({ code: 'AUDIT_FAILED', err }, 'audit trail: a row was not written'));
};

/** What was wrong, in the library's and the provider's words, causes included (bounded: the provider's text is input). */
function refusalOf(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 4; depth++) {
    for (const key of ['message', 'error', 'error_description']) {
      if (typeof e[key] === 'string' && !parts.includes(e[key])) parts.push(e[key]);
    }
    e = e.cause as Record<string, unknown> | undefined;
  }
  return parts.join(': ').slice(0, 300) || 'refused';
}
