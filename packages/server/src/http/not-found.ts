import { RESPONSE_HEADERS_READ } from '@waypost/sdk/internal';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COLUMNS_OMITTED_HEADER, NEXT_CURSOR_HEADER } from '../routes/exports.js';

/**
 * The response headers a page on an allowed origin may read: every header the SDK reads
 * (Retry-After on a 429 included: the browser SDK cannot honour it otherwise) and the exports' paging.
 */
export const EXPOSED_HEADERS = [...RESPONSE_HEADERS_READ, 'link', NEXT_CURSOR_HEADER, COLUMNS_OMITTED_HEADER];

/**
 * No route for this method and path: 405 with Allow when the path has routes for other methods,
 * 204 with Allow for an OPTIONS that is no CORS preflight, else 404.
 */
export function wrongMethodOrNotFound(request: FastifyRequest, reply: FastifyReply, allowed: string[]) {
  const path = request.url.split('?')[0];
  if (allowed.length === 0) {
    return reply.code(404).send({ error: `No route ${request.method} ${path}`, code: 'NOT_FOUND' });
  }
  const allow = [...allowed, 'OPTIONS'].join(', ');
  if (request.method === 'OPTIONS') return reply.code(204).header('allow', allow).send();
  return reply
    .code(405)
    .header('allow', allow)
    .send({ error: `${path} takes ${allow}, not ${request.method}`, code: 'METHOD_NOT_ALLOWED' });
}

/**
 * Registers the answers above: as the not-found handler, and for an OPTIONS without Origin, which
 * is no CORS preflight (the CORS plugin, registered after this, would answer it 400).
 */
export function registerMethodAnswers(app: FastifyInstance, routes: { allowed(url: string): string[] }): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || request.headers.origin !== undefined) return done();
    void wrongMethodOrNotFound(request, reply, routes.allowed(request.url));
  });
  app.setNotFoundHandler((request, reply) => wrongMethodOrNotFound(request, reply, routes.allowed(request.url)));
}
