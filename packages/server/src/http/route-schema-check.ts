import type { FastifyInstance, RouteOptions } from 'fastify';

/** Methods every route's contract covers; HEAD (Fastify's own, or a reachability check) and OPTIONS do not. */
const CHECKED = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** What `route` fails to declare, in words; [] when its contract is whole. */
function missingOf(route: RouteOptions): string[] {
  const schema = route.schema ?? {};
  const missing: string[] = [];
  if (schema.response === undefined) missing.push('response schema (schema.response, with failures(...))');
  // Params in the URL are read by the handler: they belong to its contract.
  if (/[:*]/.test(route.url) && schema.params === undefined) missing.push('params schema (schema.params)');
  return missing;
}

/**
 * Every route declares its contract (issue 44): its answers (schema.response, the failures among
 * them) and its path parameters, so the OpenAPI document falls out of the routes complete. A route
 * that does not throws here, as it is registered: the server does not start with it.
 */
export function checkRouteSchemas(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => CHECKED.has(m));
    if (methods.length === 0) return;
    const missing = missingOf(route);
    if (missing.length > 0) {
      throw new Error(
        `${methods.join(',')} ${route.url} declares no ${missing.join(' and no ')} (http/route-schema.ts)`,
      );
    }
  });
}
