import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** CSP directives by name, each a list of sources. */
export type CspDirectives = Record<string, string[]>;

/**
 * The map's origins, as CSP sources: a list of them, or (as routeSecurity has always taken) a
 * raster tile template whose host is the one source.
 */
export type MapSources = readonly string[] | string | null;

const sourcesOf = (map: MapSources): string[] => {
  if (Array.isArray(map)) return [...(map as readonly string[])];
  const source = tileSource(map as string | null);
  return source ? [source] : [];
};

/**
 * The policy of every response: nothing but this origin's own files runs, loads or frames the page,
 * and the basemap's own origins (a style's tiles, glyphs and sprites are fetched; raster tiles are
 * images). The dashboard has no inline script or style (Leaflet's and MapLibre's inline styles are
 * set through the DOM, which style-src does not govern); MapLibre's worker is this server's file.
 */
export function baseDirectives(map: MapSources): CspDirectives {
  const sources = sourcesOf(map);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', ...sources],
    'connect-src': ["'self'", ...sources],
    'worker-src': ["'self'"],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The CSP source of a tile template's host: `https://{s}.tile.example.org/...` -> `https://*.tile.example.org`. */
export function tileSource(tileUrl: string | null): string | null {
  const match = tileUrl ? /^(https?):\/\/([^/?#]+)/i.exec(tileUrl) : null;
  if (!match) return null;
  const host = match[2]!.replace(/\{[a-z]+\}/gi, '*');
  // One wildcard label at the front is all CSP allows; anything else falls back to the scheme.
  return /^(\*\.)?[\w.-]+(:\d+)?$/.test(host) ? `${match[1]!.toLowerCase()}://${host}` : `${match[1]!.toLowerCase()}:`;
}

function helmetOptions(directives: CspDirectives, crossOriginIsolated: boolean) {
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' as const },
    referrerPolicy: { policy: 'no-referrer' as const },
    // HSTS belongs to the TLS terminator (the reverse proxy), which knows the real scheme.
    hsts: false,
    crossOriginEmbedderPolicy: crossOriginIsolated ? { policy: 'require-corp' as const } : false,
    crossOriginOpenerPolicy: { policy: 'same-origin' as const },
  };
}

/**
 * The headers of an upload's answer (every route with INGEST_ROUTE's config): JSON to a device, never a document
 * a browser renders, so the set OWASP's REST Security Cheat Sheet gives API answers: a policy that
 * lets the text load and frame nothing, nosniff, DENY and no referrer. The page headers beside them
 * (COOP, CORP, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection and the dashboard's 330-byte policy) govern
 * documents only, and every device read them on every upload: 978 bytes of headers an answer, now
 * 527 (on a metered link, each upload), and 7% less of the client's CPU per one-record upload in
 * bench/ingest-cost.mjs (issue 43).
 */
function deviceAnswerOptions() {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    frameguard: { action: 'deny' as const },
    referrerPolicy: { policy: 'no-referrer' as const },
    hsts: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    dnsPrefetchControl: false,
    ieNoOpen: false,
    permittedCrossDomainPolicies: false,
    xssFilter: false,
  };
}

/** The upload routes' security headers, as their route config names them (routes/upload-route.ts INGEST_ROUTE). */
export const DEVICE_ANSWER_HELMET = deviceAnswerOptions();

type HelmetOptions = ReturnType<typeof helmetOptions> | ReturnType<typeof deviceAnswerOptions>;
/** A header helmet sets (value) or removes (null, X-Powered-By). */
type HeaderEdit = readonly [name: string, value: string | number | readonly string[] | null];

/**
 * The header edits helmet makes for these options, worked out once: helmet's middleware is run
 * against a recorder instead of a response. @fastify/helmet builds the middleware anew for every
 * request (parsing the CSP directives each time), which cost a tenth of the server's time per
 * one-record upload; the headers depend only on the options, so each route's are computed once.
 */
export function headerEditsOf(options: HelmetOptions): HeaderEdit[] {
  const edits: HeaderEdit[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => edits.push([name, value]),
    removeHeader: (name: string) => edits.push([name, null]),
  };
  let failure: unknown = null;
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => (failure = error ?? null),
  );
  if (failure) throw failure;
  return edits;
}

/**
 * Onto the reply's own headers, not the raw response's (setHeader): a response with none set on it
 * is written by Node in one pass over the headers writeHead is given, where one with some takes
 * Fastify's through setHeader again, each validated and stored twice (a few µs of the main thread
 * per one-record upload, issue 43). A hijacked reply writes them itself (reply.getHeaders()).
 */
function apply(reply: FastifyReply, edits: readonly HeaderEdit[]): void {
  for (const [name, value] of edits) {
    if (value === null) reply.removeHeader(name);
    else reply.header(name, value);
  }
}

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** This route's security headers instead of the base ones (see routeSecurity). */
    helmet?: HelmetOptions;
  }
  interface FastifyContextConfig {
    helmet?: HelmetOptions;
  }
}

/**
 * Security headers on every response (CSP, X-Frame-Options DENY, nosniff, Referrer-Policy no-referrer...):
 * the route's own when its config names a set (routeSecurity, the upload routes' DEVICE_ANSWER_HELMET),
 * else the pages' set.
 */
export function registerSecurityHeaders(app: FastifyInstance, map: MapSources): void {
  const base = headerEditsOf(helmetOptions(baseDirectives(map), false));
  app.addHook('onRoute', (route) => {
    if (route.helmet) route.config = { ...route.config, helmet: route.helmet };
  });
  const byRoute = new WeakMap<HelmetOptions, HeaderEdit[]>();
  const editsFor = (options: HelmetOptions): HeaderEdit[] => {
    let edits = byRoute.get(options);
    if (!edits) byRoute.set(options, (edits = headerEditsOf(options)));
    return edits;
  };
  // A callback hook, not an async one: no promise per request. Not-found replies get them too.
  app.addHook('onRequest', (request, reply, done) => {
    const options = request.routeOptions.config.helmet;
    apply(reply, options ? editsFor(options) : base);
    done();
  });
}

export interface RouteSecurity {
  /** Directives replacing the base policy's of the same name (others stay as they are). */
  csp?: CspDirectives;
  /** Cross-origin isolation (COOP same-origin + COEP require-corp), for SharedArrayBuffer and the like. */
  crossOriginIsolated?: boolean;
}

/**
 * Route options that relax the policy for one route, spread into the route's options:
 *
 *   app.get('/track', { ...routeSecurity(ctx.options.tileUrl, {
 *     csp: { 'script-src': ["'self'", "'wasm-unsafe-eval'"], 'worker-src': ["'self'"] },
 *     crossOriginIsolated: true }) }, handler)
 *
 * Everything not named keeps the base policy.
 */
export function routeSecurity(map: MapSources, security: RouteSecurity): { helmet: ReturnType<typeof helmetOptions> } {
  const directives = { ...baseDirectives(map), ...security.csp };
  return { helmet: helmetOptions(directives, security.crossOriginIsolated ?? false) };
}
