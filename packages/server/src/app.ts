import Fastify, { type FastifyInstance } from 'fastify';
import { fillUserNameKeys, USER_NAME_CLASH } from './accounts/user-name-key.js';
import { keptAdminToken } from './auth/kept-admin-token.js';
import type { AppContext } from './context.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrations.js';
import { openPostgres } from './db/postgres.js';
import { openSqlite } from './db/sqlite.js';
import type { CheckpointOptions } from './db/wal-checkpointer.js';
import { closeKeepAliveOnClose } from './http/close-keep-alive.js';
import { fastifyOptionsOf } from './http/fastify-options.js';
import { createRouteIndex } from './http/method-routing.js';
import { registerHttpLayer } from './http/register-http.js';
import { checkRouteAccess } from './http/route-access-check.js';
import { checkRouteSchemas } from './http/route-schema-check.js';
import { collectRoutes } from './http/route-list.js';
import { closeContext, openContext } from './open-context.js';
import { resolveOptions, type ServerOptions } from './options.js';
import type { RateLimitScope } from './rate-limit/limiter.js';
import { registerRoutes } from './routes/register-routes.js';

export interface BuildOptions extends ServerOptions {
  /** The server's clock (epoch ms), for token expiry and rate limits in tests; default Date.now. */
  now?: () => number;
  /** Where the request log goes (with logger: true); default stdout. */
  logStream?: { write(line: string): void };
  /** SQLite's checkpoint thread: its interval and a report of each checkpoint, for tests. */
  sqliteCheckpoints?: CheckpointOptions;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit scope of a route's requests per client address; default 'address'. */
    rateLimitScope?: RateLimitScope;
  }
  interface FastifyInstance {
    /** The service's context (database, options, metrics, ...), for startServer and tools. */
    waypost: AppContext;
  }
}

async function openDatabase(
  options: ReturnType<typeof resolveOptions>,
  checkpoints: CheckpointOptions = {},
): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize);
  return openSqlite(options.database, checkpoints);
}

/** The Fastify app over an open, migrated database. Closing the app closes the database. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  const now = options.now ?? Date.now;
  const db = await openDatabase(resolved, options.sqliteCheckpoints);
  let ctx: AppContext | null = null;
  try {
    await migrate(db);
    const nameClashes = await fillUserNameKeys(db);
    if (resolved.adminToken === '') {
      const kept = await keptAdminToken(db, resolved);
      resolved.adminToken = kept.token;
      resolved.adminTokenKeptIn = kept.keptIn;
    }
    const opened = await openContext(db, resolved, now);
    ctx = opened.ctx;
    const routes = createRouteIndex();
    const app = Fastify(fastifyOptionsOf(resolved, routes, options.logStream));
    app.server.maxConnections = resolved.maxConnections;
    routes.track(app);
    collectRoutes(app);
    checkRouteAccess(app);
    checkRouteSchemas(app);
    closeKeepAliveOnClose(app);
    opened.attachLog(app.log);
    for (const { name, clashesWith } of nameClashes)
      app.log.warn(
        { code: USER_NAME_CLASH, user: name, clashesWith },
        `user "${name}" cannot log in: its name differs from the older "${clashesWith}" only by case; delete one`,
      );
    app.decorate('waypost', ctx);
    await registerHttpLayer(app, ctx, routes);
    const closing = ctx;
    app.addHook('onClose', () => closeContext(closing));
    await registerRoutes(app, ctx);
    ctx.retention.start();
    return app;
  } catch (error) {
    if (ctx) await closeContext(ctx);
    else await db.close();
    throw error;
  }
}
