import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { INPUT_LIMITS, nestsDeeperThan } from '../ingest/validation.js';
import { decodedBody } from './decompress.js';

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/**
 * The body types each route takes; a route not listed takes JSON. Only JSON (or another type a
 * browser cannot send cross-site without a CORS preflight) keeps a page on another origin from
 * writing here: text/plain, form and multipart bodies are "simple requests" any page can send.
 * So the SDK's routes take JSON only; OsmAnd (form), log upload (multipart) and the token routes
 * (form, as the SDK's refresh sends them) take what their clients send. A route may say its own
 * with route config `accepts: [...]`.
 */
export const ACCEPTED_TYPES: Record<string, readonly string[]> = {
  '/locations': [JSON_TYPE],
  '/api/locations': [JSON_TYPE],
  '/owntracks': [JSON_TYPE],
  '/overland': [JSON_TYPE],
  '/osmand': [FORM, JSON_TYPE],
  '/capacitor': [JSON_TYPE],
  '/api/logs': [MULTIPART],
  '/auth/register': [FORM, JSON_TYPE],
  '/auth/refresh': [FORM, JSON_TYPE],
  '/auth/revoke': [FORM, JSON_TYPE],
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types this route's body may have (see ACCEPTED_TYPES). */
    accepts?: readonly string[];
    /** A zero-length JSON body is this value on this route (else a 400 EMPTY_BODY). */
    emptyJsonBody?: null;
  }
}

export const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * Before any body is read: the content type must be one the route documents (415, nothing read
 * or stored), and a compressed body is inflated as a stream bounded by the body limit.
 */
export function registerBodyGuards(app: FastifyInstance, ctx: AppContext): void {
  const guarded = (request: FastifyRequest, payload: Readable): Readable => {
    if (request.method === 'GET' || request.method === 'HEAD' || !hasBody(request)) return payload;
    const type = mediaType(request.headers['content-type']);
    const accepted = request.routeOptions.config.accepts ??
      ACCEPTED_TYPES[request.routeOptions.url ?? ''] ?? [JSON_TYPE];
    if (!accepted.includes(type)) {
      throw new HttpError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `${request.routeOptions.url ?? request.url} takes ${accepted.join(' or ')}, not ${type || 'a body without Content-Type'}`,
      );
    }
    const encoding = request.headers['content-encoding'];
    if (!encoding || encoding.trim().toLowerCase() === 'identity') return payload;
    if (type === MULTIPART) {
      throw new HttpError(415, 'UNSUPPORTED_ENCODING', 'Multipart bodies are taken without Content-Encoding');
    }
    return decodedBody(payload, encoding, ctx.options.bodyLimitBytes);
  };
  // A DELETE without a body is taken whatever Content-Type it names (issue 41): clients that send
  // `Content-Type: application/json` on every request could not delete (400 EMPTY_BODY, or 415 for
  // another type). Fastify reads no body for a request without a Content-Type and a length of 0.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'DELETE' && !hasBody(request)) delete request.headers['content-type'];
    done();
  });
  // A callback hook, not an async one: no promise per request.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    let body: Readable;
    try {
      body = guarded(request, payload);
    } catch (error) {
      return done(error as Error);
    }
    done(null, body);
  });

  // JSON as Fastify parses it (prototype poisoning refused), then bounded in depth: a body nested
  // thousands deep would otherwise overflow the stack later, in a recursive walk or JSON.stringify.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(JSON_TYPE);
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request, body, done) => {
    const tooDeep = () =>
      new HttpError(
        400,
        'TOO_DEEP',
        `The body nests deeper than ${INPUT_LIMITS.maxDepth} levels of arrays and objects`,
      );
    if (body === '' && request.routeOptions.config.emptyJsonBody === null) return done(null, null);
    try {
      parseJson(request, body as string, (error, value) => {
        if (error) return done(error instanceof RangeError ? tooDeep() : error, undefined);
        if (nestsDeeperThan(value, INPUT_LIMITS.maxDepth)) return done(tooDeep(), undefined);
        done(null, value);
      });
    } catch (error) {
      done(error instanceof RangeError ? tooDeep() : (error as Error), undefined);
    }
  });
}
