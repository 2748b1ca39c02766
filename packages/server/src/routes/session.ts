import type { FastifyPluginAsync } from 'fastify';
import { sameSecret } from '../auth/principal.js';
import { endSession, hasSession, startSession } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';

/** The login form's body: the admin token, nothing else (bounded: it is compared, never stored). */
const LOGIN_BODY = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 4096 } },
} as const;

/**
 * The dashboard's login: the admin token is sent once in a JSON body and exchanged for an HttpOnly
 * session cookie, so it never sits in a URL, in localStorage or within reach of page script.
 */
export const sessionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post<{ Body: { token: string } }>(
    '/api/session',
    { config: { rateLimitScope: 'login' }, schema: { body: LOGIN_BODY } },
    async (request, reply) => {
      if (!sameSecret(request.body.token, ctx.options.adminToken)) {
        throw new HttpError(401, 'INVALID_ADMIN_TOKEN', 'That is not the admin token of this server');
      }
      await startSession(ctx, request, reply);
      return reply.code(204).send();
    },
  );

  app.get('/api/session', async (request) => {
    if (!(await hasSession(ctx, request))) throw new HttpError(401, 'NO_SESSION', 'Not logged in');
    return { authenticated: true };
  });

  app.delete('/api/session', async (request, reply) => {
    await endSession(ctx, request, reply);
    return reply.code(204).send();
  });
};
