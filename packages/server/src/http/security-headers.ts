import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** CSP directives by name, each a list of sources. */
export type CspDirectives = Record<string, string[]>;

/**
 * The policy of every response: nothing but this origin's own files runs, loads or frames the page.
 * The dashboard has no inline script or style (Leaflet's inline styles are set through the DOM,
 * which style-src does not govern).
 */
export function baseDirectives(tileUrl: string | null): CspDirectives {
  const tiles = tileSource(tileUrl);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', ...(tiles ? [tiles] : [])],
    'connect-src': ["'self'"],
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

/** Security headers on every response (CSP, X-Frame-Options DENY, nosniff, Referrer-Policy no-referrer...). */
export async function registerSecurityHeaders(app: FastifyInstance, tileUrl: string | null): Promise<void> {
  await app.register(helmet, { global: true, ...helmetOptions(baseDirectives(tileUrl), false) });
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
export function routeSecurity(
  tileUrl: string | null,
  security: RouteSecurity,
): { helmet: ReturnType<typeof helmetOptions> } {
  const directives = { ...baseDirectives(tileUrl), ...security.csp };
  return { helmet: helmetOptions(directives, security.crossOriginIsolated ?? false) };
}
