import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { ResolvedOptions } from '../options.js';
import type { createRouteIndex } from './method-routing.js';
import { requestLogOptions } from './request-log.js';

/** Fastify's own settings for this service: limits, deadlines and how bodies are checked. */
export function fastifyOptionsOf(
  resolved: ResolvedOptions,
  routes: ReturnType<typeof createRouteIndex>,
  logStream: { write(line: string): void } | undefined,
): FastifyHttpOptions<Server> {
  return {
    logger: resolved.logger
      ? { level: 'info', ...requestLogOptions, ...(logStream ? { stream: logStream } : {}) }
      : false,
    bodyLimit: resolved.bodyLimitBytes,
    // A device id may be 200 characters; percent-encoded in /api/devices/:id it can be 9 times
    // that (3-byte UTF-8). Fastify's default of 100 would answer 414 for such a device.
    routerOptions: { maxParamLength: 2048 },
    // /osmand/ is /osmand when only the latter is a route (http/method-routing.ts).
    rewriteUrl: (request) => routes.rewrite(request.method, request.url),
    trustProxy: resolved.trustProxy,
    // Slow clients cannot hold the server: headers and whole requests have a deadline (408),
    // checked every second (Node's default check, every 30 s, would let them stay that long).
    requestTimeout: resolved.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(resolved.headersTimeoutMs, resolved.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, resolved.headersTimeoutMs),
    },
    // Route schemas check; they never rewrite (Fastify's default would turn a body of 17 into [17]).
    // A key the schema does not name is refused (400 INVALID_OPTION naming the nearest, http/unknown-keys.ts),
    // never dropped in silence (Fastify's default removeAdditional would drop it and answer 2xx).
    ajv: { customOptions: { coerceTypes: false, allowUnionTypes: true, removeAdditional: false } },
  };
}
