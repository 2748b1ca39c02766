import type { FastifyInstance } from 'fastify';
import { sameSecret } from '../auth/principal.js';
import { endSession, hasSession, startSession } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';

/**
 * The dashboard's login: the admin token is sent once in a JSON body and exchanged for an HttpOnly
 * session cookie, so it never sits in a URL, in localStorage or within reach of page script.
 */
export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/session', { config: { rateLimitScope: 'login' } }, async (request, reply) => {
    const body = request.body;
    const token =
      body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).token : undefined;
    if (typeof token !== 'string' || !sameSecret(token, ctx.options.adminToken)) {
      throw new HttpError(401, 'INVALID_ADMIN_TOKEN', 'That is not the admin token of this server');
    }
    await startSession(ctx, request, reply);
    return reply.code(204).send();
  });

  app.get('/api/session', async (request) => {
    if (!(await hasSession(ctx, request))) throw new HttpError(401, 'NO_SESSION', 'Not logged in');
    return { authenticated: true };
  });

  app.delete('/api/session', async (request, reply) => {
    await endSession(ctx, request, reply);
    return reply.code(204).send();
  });
}
