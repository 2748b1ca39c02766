import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { decoyHash, verifyPassword } from '../accounts/password.js';
import { principalOf, sameSecret } from '../auth/principal.js';
import { endSession, isCrossOriginWrite, startSession } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { userNameKey } from '../accounts/user-name-key.js';
import { findUserToLogIn } from '../store/users.js';
import { LOGIN_NAME_SCHEMA, PASSWORD_SCHEMA } from './user-schemas.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import { failures } from '../http/route-schema.js';
import { ROLE_SCHEMA } from './user-schemas.js';
import { text } from './schemas/common.js';

const NAMES_OR_NULL = { type: ['array', 'null'], items: { type: 'string' } } as const;
/** Who the session is: a user with their role and scope, or the admin (`{ authenticated: true }` alone). */
const SESSION = {
  type: 'object',
  properties: {
    authenticated: { type: 'boolean', description: 'Always true (a request without a session is answered 401)' },
    user: text("The user's name (absent: the admin token's session)"),
    role: ROLE_SCHEMA,
    orgs: NAMES_OR_NULL,
    groups: NAMES_OR_NULL,
  },
  required: ['authenticated'],
  additionalProperties: false,
} as const;
const COOKIE_SET = {
  type: 'null',
  description: 'Logged in: the session cookie is set',
  headers: { 'set-cookie': text('The HttpOnly session cookie') },
} as const;

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
export const sessionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  declarePublicFamily(app, 'the login and the session it opens');
  app.decorateRequest('loggedInAs', null);
  app.post(
    '/api/session',
    {
      config: { rateLimitScope: 'login' },
      schema: {
        summary: "Logs in with the admin token or a user's name and password, for an HttpOnly session cookie",
        body: LOGIN_BODY,
        response: {
          204: COOKIE_SET,
          ...failures(
            'INVALID_BODY',
            'INVALID_OPTION',
            'CROSS_ORIGIN',
            'INVALID_ADMIN_TOKEN',
            'INVALID_LOGIN',
            'RATE_LIMITED',
          ),
        },
      },
    },
    async (request, reply) => {
      // A login posted by another origin's page (login CSRF: the browser would end up in the
      // attacker's account, and whatever it then records goes there) is refused, cookie-less.
      if (isCrossOriginWrite(request)) throw crossOrigin();
      // The schema's oneOf admits exactly these two shapes; the provider's type keeps every key optional.
      const body = request.body as { token: string } | { user: string; password: string };
      if ('token' in body) {
        if (!sameSecret(body.token, ctx.options.adminToken)) {
          throw new HttpError(401, 'INVALID_ADMIN_TOKEN', 'That is not the admin token of this server');
        }
        await startSession(ctx, request, reply);
        return reply.code(204).send(null);
      }
      ctx.rateLimiter.take('account', userNameKey(body.user));
      const user = await findUserToLogIn(ctx.db, body.user);
      // An unknown name costs the same scrypt as a known one: the answer's time names no user.
      const matches = await verifyPassword(body.password, user?.password_hash ?? (await decoyHash()));
      if (!user || !matches) throw new HttpError(401, 'INVALID_LOGIN', 'Wrong user name or password');
      await startSession(ctx, request, reply, user.name);
      request.loggedInAs = user.name;
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/session',
    {
      schema: {
        summary: 'Who the session is (the dashboard asks on load)',
        response: { 200: SESSION, ...failures('NO_SESSION', 'WRONG_TOKEN', 'RATE_LIMITED') },
      },
    },
    async (request) => {
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
    },
  );

  app.delete(
    '/api/session',
    {
      schema: {
        summary: 'Logs out: ends the session and clears its cookie',
        response: { 204: { type: 'null', description: 'Logged out' }, ...failures('CROSS_ORIGIN', 'RATE_LIMITED') },
      },
    },
    async (request, reply) => {
      if (isCrossOriginWrite(request)) throw crossOrigin();
      await endSession(ctx, request, reply);
      return reply.code(204).send(null);
    },
  );
};

const crossOrigin = (): HttpError =>
  new HttpError(403, 'CROSS_ORIGIN', "Log in and out from this server's own pages, not from another origin");
