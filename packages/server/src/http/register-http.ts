import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import {
  COLUMNAR_CODING,
  COLUMNAR_CODING_2,
  COLUMNAR_CODING_3,
  DROPPED_HEADER,
  HEALTH_ACCEPTED_HEADER,
  HEALTH_HEADER,
  LEDGER_HEADER,
  LEDGER_EPOCHS_HEADER,
  RECEIPTED_HEADER,
  RECEIPTS_HEADER,
} from '@waypost/sdk/internal';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { registerRoleGate } from '../accounts/role-gate.js';
import { registerAuditTrail } from '../audit/audit-trail.js';
import { registerCredentialGate } from '../auth/credential-gate.js';
import type { AppContext } from '../context.js';
import { mapSourcesOf } from '../routes/basemap-config.js';
import { registerBodyGuards } from './body-guards.js';
import { registerCompression } from './compression.js';
import { errorReply } from './error-reply.js';
import { limitedStatus } from './limited-status.js';
import type { createRouteIndex } from './method-routing.js';
import { EXPOSED_HEADERS, registerMethodAnswers } from './not-found.js';
import { registerOpenApi } from './openapi.js';
import { registerRequestMetrics } from './request-metrics.js';
import { registerRefusalNotes } from '../health/refusal-notes.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerUploadAdmission } from './upload-admission.js';
import { schemaKeyError } from './unknown-keys.js';

/** A route path without its query (Fastify's routeOptions.url). */
const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? '';
/** Routes mark themselves as upload routes (routes/upload-route.ts, INGEST_ROUTE). */
const isIngest = (request: FastifyRequest): boolean => request.routeOptions.config.ingest === true;

/** The request content codings body-guards decode (http/decompress.ts). */
const ACCEPTED_REQUEST_CODINGS = `gzip, deflate, br, ${COLUMNAR_CODING}, ${COLUMNAR_CODING_2}, ${COLUMNAR_CODING_3}`;

/**
 * Everything every request passes through, in order: security headers, method answers, CORS,
 * compression, body parsers, the per-address rate limit, the audit trail, the credential gate, the parse admission of uploads, body guards, the role
 * gate, the error answer and request metrics. Global hooks on purpose: a new route cannot forget one.
 */
export async function registerHttpLayer(
  app: FastifyInstance,
  ctx: AppContext,
  routes: ReturnType<typeof createRouteIndex>,
): Promise<void> {
  const resolved = ctx.options;
  registerSecurityHeaders(app, mapSourcesOf(resolved));
  registerMethodAnswers(app, routes);
  if (resolved.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: resolved.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'content-type',
        'authorization',
        'x-device-id',
        'content-encoding',
        DROPPED_HEADER,
        HEALTH_HEADER,
        RECEIPTS_HEADER,
        RECEIPTED_HEADER,
      ],
      // A page on another origin reads what the SDK learns from (Retry-After, codings, the
      // ledger, health reports) and where an export continues.
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    });
  }
  await registerCompression(app);
  await registerOpenApi(app);
  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: resolved.bodyLimitBytes, files: 1, fields: 50 } });
  // Per client address, before anything is read; /health stays answerable for monitors.
  app.addHook('onRequest', (request, reply, done) => {
    // Request codings this service decodes, advertised on every ingest answer (RFC 7694), errors
    // included: the SDK compresses its uploads only once a server has said so.
    // And that this service keeps the delivery ledger: the SDK then reports its dropped sequence
    // numbers (Waypost-Dropped), which it never sends to a server that did not say so.
    // And that it reads device health reports (Waypost-Health), under the same rule.
    if (isIngest(request)) {
      reply
        .header('accept-encoding', ACCEPTED_REQUEST_CODINGS)
        .header(LEDGER_HEADER, '1')
        // It keeps each numbering apart (issue 39): reports may name their epoch.
        .header(LEDGER_EPOCHS_HEADER, '1')
        .header(HEALTH_ACCEPTED_HEADER, '1');
    }
    if (routeOf(request) === '/health') return done();
    try {
      ctx.rateLimiter.take('address', request.ip);
      if (request.routeOptions.config.rateLimitScope === 'login') ctx.rateLimiter.take('login', request.ip);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  // Who makes a change, then credentials before bodies: a request refused for its credential is
  // never read or decoded, and a refused change is still kept in the audit trail.
  registerAuditTrail(app, ctx);
  registerCredentialGate(app, ctx);
  registerUploadAdmission(app);
  registerBodyGuards(app, ctx);
  registerRoleGate(app, ctx);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const where = `the body of ${request.method} ${routeOf(request)}`;
    const keyError = schemaKeyError(error, request.routeOptions.schema?.body, request.body, where);
    const { status, body, headers } = errorReply(keyError ?? error, resolved.bodyLimitBytes);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(limitedStatus(request, status)).headers(headers).send(body);
  });
  registerRequestMetrics(app, ctx);
  registerRefusalNotes(app, ctx);
}
