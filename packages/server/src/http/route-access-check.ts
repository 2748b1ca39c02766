import type { FastifyInstance } from 'fastify';
import type { RouteAccess } from '../accounts/route-rules.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route's declared access, by "METHOD /path" (HEAD and OPTIONS left out), for tests and tools. */
    routeAccess: Record<string, RouteAccess>;
    /** Set by a plugin whose every route is public (declarePublicFamily); encapsulated to that plugin. */
    publicFamily?: string;
  }
}

/**
 * Every route declares who may call it (issue 44): an access in its own options, or a plugin that
 * declares its whole family public (uploads, the anchor's API, the dashboard's files). A route that
 * declares neither throws here, as it is registered: the server does not start with it.
 */
export function checkRouteAccess(app: FastifyInstance): void {
  const declared: Record<string, RouteAccess> = {};
  app.decorate('routeAccess', declared);
  app.addHook('onRoute', function (route) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const family = (this as FastifyInstance).publicFamily;
    // A CORS preflight (@fastify/cors's `OPTIONS *`) answers what a route allows, on no one's behalf.
    const preflight = methods.every((method) => method === 'OPTIONS');
    const access = route.config?.access ?? (family === undefined && !preflight ? undefined : 'public');
    if (access === undefined) {
      throw new Error(
        `${methods.join(',')} ${route.url} declares no access: give it config.access (accounts/route-rules.ts)`,
      );
    }
    route.config = { ...route.config, access };
    for (const method of methods)
      if (method !== 'HEAD' && method !== 'OPTIONS') declared[`${method} ${route.url}`] = access;
  });
}

/**
 * Declares every route of this plugin public, with why (uploads with device credentials, the
 * anchor's own tokens, files anyone may fetch). Call first in the plugin; it reaches no other plugin.
 */
export function declarePublicFamily(app: FastifyInstance, why: string): void {
  app.decorate('publicFamily', why);
}
