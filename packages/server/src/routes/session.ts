import type { FastifyPluginAsync } from 'fastify';
import { decoyHash, verifyPassword } from '../accounts/password.js';
import { principalOf, sameSecret } from '../auth/principal.js';
import { endSession, isCrossOriginWrite, startSession } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { userNameKey } from '../accounts/user-name-key.js';
import { findUserToLogIn } from '../store/users.js';
import { LOGIN_NAME_SCHEMA, PASSWORD_SCHEMA } from './user-schemas.js';
import { declarePublicFamily } from '../http/route-access-check.js';

/** The login form's body: the admin token, or a user's name and password (bounded: compared, never stored). */
const LOGIN_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 4096 },
    user: LOGIN_NAME_SCHEMA,
    password: { ...PASSWORD_SCHEMA, minLength: 1 },
  },
  oneOf: [{ required: ['token'] }, { required: ['user', 'password'] }],
} as const;

type LoginBody = { token: string } | { user: string; password: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** The user a login just opened a session for (the audit trail's actor of the login). */
    loggedInAs: string | null;
  }
}

/**
 * The dashboard's login: the admin token, or a user's name and password, is sent once in a JSON
 * body and exchanged for an HttpOnly session cookie, so it never sits in a URL, in localStorage or
 * within reach of page script. Password logins are limited per account as well as per address.
 */
export const sessionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  declarePublicFamily(app, 'the login and the session it opens');
  app.decorateRequest('loggedInAs', null);
  app.post<{ Body: LoginBody }>(
    '/api/session',
    { config: { rateLimitScope: 'login' }, schema: { body: LOGIN_BODY } },
    async (request, reply) => {
      // A login posted by another origin's page (login CSRF: the browser would end up in the
      // attacker's account, and whatever it then records goes there) is refused, cookie-less.
      if (isCrossOriginWrite(request)) throw crossOrigin();
      const body = request.body;
      if ('token' in body) {
        if (!sameSecret(body.token, ctx.options.adminToken)) {
          throw new HttpError(401, 'INVALID_ADMIN_TOKEN', 'That is not the admin token of this server');
        }
        await startSession(ctx, request, reply);
        return reply.code(204).send();
      }
      ctx.rateLimiter.take('account', userNameKey(body.user));
      const user = await findUserToLogIn(ctx.db, body.user);
      // An unknown name costs the same scrypt as a known one: the answer's time names no user.
      const matches = await verifyPassword(body.password, user?.password_hash ?? (await decoyHash()));
      if (!user || !matches) throw new HttpError(401, 'INVALID_LOGIN', 'Wrong user name or password');
      await startSession(ctx, request, reply, user.name);
      request.loggedInAs = user.name;
      return reply.code(204).send();
    },
  );

  app.get('/api/session', async (request) => {
    const principal = await principalOf(ctx, request);
    if (principal.kind === 'user') {
      return {
        authenticated: true,
        user: principal.name,
        role: principal.role,
        orgs: principal.orgs,
        groups: principal.groups,
      };
    }
    if (principal.kind !== 'admin' || principal.via !== 'session') {
      throw new HttpError(401, 'NO_SESSION', 'Not logged in');
    }
    return { authenticated: true };
  });

  app.delete('/api/session', async (request, reply) => {
    if (isCrossOriginWrite(request)) throw crossOrigin();
    await endSession(ctx, request, reply);
    return reply.code(204).send();
  });
};

const crossOrigin = (): HttpError =>
  new HttpError(403, 'CROSS_ORIGIN', "Log in and out from this server's own pages, not from another origin");
