import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { loadSigningKey } from './auth/signing-key.js';
import { createTokenService } from './auth/tokens.js';
import type { AppContext } from './context.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrations.js';
import { openPostgres } from './db/postgres.js';
import { openSqlite } from './db/sqlite.js';
import { HttpError } from './errors.js';
import { createIngestQueue } from './ingest/ingest-queue.js';
import { LiveEvents } from './live-events.js';
import { createMetrics } from './metrics.js';
import { resolveOptions, type ServerOptions } from './options.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerEventRoutes } from './routes/events.js';
import { anchorRoutes } from './routes/anchor/index.js';
import { ingestRoutes } from './routes/ingest.js';
import { orgAdminRoutes } from './routes/orgs-admin.js';
import { registerLogRoutes } from './routes/logs.js';

export interface BuildOptions extends ServerOptions {
  /** The server's clock (epoch ms), for token expiry in tests; default Date.now. */
  now?: () => number;
}

const INGEST_PATHS = new Set([
  '/locations',
  '/api/locations',
  '/owntracks',
  '/overland',
  '/osmand',
  '/api/jwt/locations',
  '/api/jwt/locations/:company_token',
  '/api/firebase/locations',
  '/api/firebase/locations/:company_token',
  '/api/locations/:company_token',
  '/api/site/locations',
  '/api/site/locations/:company_token',
  '/locations/:company_token',
]);

async function openDatabase(options: ReturnType<typeof resolveOptions>): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize);
  return openSqlite(options.database);
}

/** The JSON error body for anything thrown: HttpError as is, Fastify's own errors mapped to stable codes. */
function errorReply(error: FastifyError, bodyLimit: number): { status: number; body: Record<string, unknown> } {
  if (error instanceof HttpError)
    return { status: error.statusCode, body: { error: error.message, code: error.code, ...error.body } };
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE') {
    return {
      status: 413,
      body: { error: `The body is larger than this server's limit of ${bodyLimit} bytes`, code: 'BODY_TOO_LARGE' },
    };
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, body: { error: `Malformed JSON body: ${error.message}`, code: 'MALFORMED_JSON' } };
  }
  if (error.validation) {
    const where = error.validationContext === 'body' ? 'INVALID_BODY' : 'INVALID_PARAMETER';
    return { status: 400, body: { error: error.message, code: where } };
  }
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, body: { error: 'The body is empty; send JSON', code: 'EMPTY_BODY' } };
  }
  const status = error.statusCode ?? 500;
  if (status < 500) return { status, body: { error: error.message, code: error.code ?? 'BAD_REQUEST' } };
  return { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } };
}

/** The Fastify app over an open, migrated database. Closing the app closes the database. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  const now = options.now ?? Date.now;
  const db = await openDatabase(resolved);
  let app: FastifyInstance;
  try {
    await migrate(db);
    const key = await loadSigningKey(db);
    const ctx: AppContext = {
      db,
      options: resolved,
      tokens: createTokenService(key, {
        accessTtlSeconds: resolved.accessTokenTtlSeconds,
        refreshTtlSeconds: resolved.refreshTokenTtlSeconds,
        now,
      }),
      metrics: createMetrics(),
      events: new LiveEvents(),
      now,
      ingestQueue: createIngestQueue(db, now, resolved.poolSize),
    };
    app = Fastify({
      logger: resolved.logger ? { level: 'info' } : false,
      bodyLimit: resolved.bodyLimitBytes,
      // Route schemas check; they never rewrite (Fastify's default would turn a body of 17 into [17]).
      ajv: { customOptions: { coerceTypes: false, allowUnionTypes: true } },
    });
    app.decorate('waypost', ctx);
    await app.register(formbody);
    await app.register(multipart, { limits: { fileSize: resolved.bodyLimitBytes, files: 1 } });
    // Uploads from clients that do not say application/json are JSON all the same.
    app.addContentTypeParser(
      ['text/plain', 'application/octet-stream'],
      { parseAs: 'string' },
      (_request, body, done) => {
        const text = String(body);
        if (text.trim() === '') return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
    );
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { status, body } = errorReply(error, resolved.bodyLimitBytes);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      if (!(error instanceof HttpError) && status < 500 && INGEST_PATHS.has(request.routeOptions.url ?? ''))
        ctx.metrics.rejected += 1;
      return reply.code(status).send(body);
    });
    app.setNotFoundHandler((request, reply) =>
      reply.code(404).send({ error: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' }),
    );
    // A callback hook, not an async one: no promise per response.
    app.addHook('onResponse', (_request, reply, done) => {
      ctx.metrics.requestsByStatus.set(reply.statusCode, (ctx.metrics.requestsByStatus.get(reply.statusCode) ?? 0) + 1);
      done();
    });
    app.addHook('onClose', async () => {
      await ctx.ingestQueue.drain();
      await db.close();
    });
    app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4').send(ctx.metrics.render()));
    app.get('/health', async () => ({ ok: true }));
    await app.register(ingestRoutes, { ctx });
    await app.register(anchorRoutes, { ctx });
    await app.register(orgAdminRoutes, { ctx });
    registerAuthRoutes(app, ctx);
    registerAdminRoutes(app, ctx);
    registerLogRoutes(app, ctx);
    registerEventRoutes(app, ctx);
    registerDashboardRoutes(app, ctx);
  } catch (error) {
    await db.close();
    throw error;
  }
  return app;
}
