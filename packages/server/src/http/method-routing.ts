import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

/** The methods answered for a path, in Allow's order. */
const METHODS: readonly HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

const pathOf = (url: string): string => url.split('?')[0]!;

/**
 * Every route's path and methods, in a second router of Fastify's own routing library
 * (find-my-way), filled as routes are registered. It answers what Fastify's router cannot:
 * which methods a path has (405 with Allow instead of 404, RFC 9110 15.5.6; OPTIONS with Allow),
 * and whether a path with a trailing slash is a route without it (/osmand/ as /osmand: trackers'
 * URL fields vary). Fastify's global ignoreTrailingSlash cannot be used: /track and /track/ are
 * different pages (the redirect makes the page's relative links work).
 */
export function createRouteIndex() {
  const paths = FindMyWay();
  const noop = () => undefined;
  const has = (method: string, path: string) => paths.find(method as HTTPMethod, path) !== null;
  return {
    /** Records the routes registered on `app` from now on. */
    track(app: FastifyInstance): void {
      app.addHook('onRoute', (route) => {
        // The CORS plugin's catch-all OPTIONS route says nothing about a path's methods.
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) {
          if (!METHODS.includes(method as HTTPMethod) || paths.hasRoute(method as HTTPMethod, route.url)) continue;
          paths.on(method as HTTPMethod, route.url, noop);
        }
      });
    },
    /** The URL to route: without its trailing slash when only the path without it is a route. */
    rewrite(method: string | undefined, url: string | undefined): string {
      const raw = url ?? '/';
      const path = pathOf(raw);
      if (path.length < 2 || !path.endsWith('/') || !method || has(method, path)) return raw;
      const bare = path.slice(0, -1);
      return has(method, bare) ? `${bare}${raw.slice(path.length)}` : raw;
    },
    /** The methods with a route at this path (the query is ignored); [] when none has one. */
    allowed(url: string): string[] {
      const path = pathOf(url);
      return METHODS.filter((method) => has(method, path));
    },
  };
}
