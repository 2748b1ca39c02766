import { RESPONSE_HEADERS_READ } from '@waypost/sdk/internal';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
