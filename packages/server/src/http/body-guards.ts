import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { decodedBody } from './decompress.js';
import { JsonShapeScan, jsonShapeLimits, tooDeep } from './json-shape.js';
import { parseWhenAdmitted } from './upload-admission.js';

type ParserDone = (error: Error | null, value?: unknown) => void;

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
/** JSON.parse refused the text (a value no JSON text parses to). */
const INVALID = Symbol('invalid JSON');

function parsedOrInvalid(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return INVALID;
  }
}

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
  interface FastifyRequest {
    /** The JSON body's shape as scanned while it was decoded (decompress.ts): the parser need not again. */
    jsonShapeScan: JsonShapeScan | null;
  }
}

export const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * Before any body is read: the content type must be one the route documents (415, nothing read
 * or stored), and a compressed body is inflated as a stream bounded by the body limit. A JSON
 * body's objects, values and nesting are counted before it is parsed (json-shape.ts): as it is
 * decoded when it has a coding, else in the parser, on the bytes JSON.parse would read.
 */
export function registerBodyGuards(app: FastifyInstance, ctx: AppContext): void {
  const shapeLimits = jsonShapeLimits(ctx.options.maxRecordsPerRequest);
  app.decorateRequest('jsonShapeScan', null);
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
    if (type !== JSON_TYPE) return decodedBody(payload, encoding, ctx.options.bodyLimitBytes);
    const scan = { shape: new JsonShapeScan(shapeLimits), maxObjects: shapeLimits.maxContainers };
    request.jsonShapeScan = scan.shape;
    return decodedBody(payload, encoding, ctx.options.bodyLimitBytes, 'The body', scan);
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

  // JSON as Fastify parses it (prototype poisoning refused), once its shape is bounded: a body
  // nested thousands deep would overflow the stack later (a recursive walk, JSON.stringify), and
  // one of millions of empty objects costs seconds to build and walk. A body the scan found free
  // of any key that could poison (json-shape.ts) is parsed by JSON.parse alone: Fastify's parser
  // would build the same value, then read the whole text again for such keys. A text JSON.parse
  // refuses goes to Fastify's parser too, for the very same error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(JSON_TYPE);
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0 && request.routeOptions.config.emptyJsonBody === null) return done(null, null);
    parseWhenAdmitted(ctx.parseAdmission, request, bytes.length, () => parse(request, bytes, done));
  });
  const parse = (request: FastifyRequest, bytes: Buffer, done: ParserDone): void => {
    let text: string;
    let value: unknown = INVALID;
    try {
      let scan = request.jsonShapeScan;
      if (!scan) (scan = new JsonShapeScan(shapeLimits)).feed(bytes);
      text = bytes.toString();
      if (!scan.suspect) value = parsedOrInvalid(text);
      // The records' own text, stored as it came (ingest/record-source.ts): only from JSON.parse's
      // value, whose every string was free of escapes (a suspect text goes to Fastify's parser).
      if (value !== INVALID) scan.spans.keepSources(value, bytes);
    } catch (error) {
      return done(error instanceof RangeError ? tooDeep(shapeLimits.maxDepth) : (error as Error), undefined);
    }
    if (value !== INVALID) return done(null, value);
    parseJson(request, text, (error, parsed) => {
      if (error) return done(error instanceof RangeError ? tooDeep(shapeLimits.maxDepth) : error, undefined);
      done(null, parsed);
    });
  };
}
