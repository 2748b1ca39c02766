/**
 * Checks of startServer()'s options, each failure a ServerOptionError naming the option, so that
 * a program gets one kind of error with a code and the command line can name its own flag (a bad
 * flag is exit 2, "could not start" is for what goes wrong at run time).
 */
export class ServerOptionError extends Error {
  readonly code = 'INVALID_OPTION';
  constructor(
    /** The ServerOptions key, e.g. "sinkEvents". */
    readonly option: string,
    /** What is wrong, without the option's name ("must be a URL, got ..."). */
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(`Option ${option} ${detail}`, options);
    this.name = 'ServerOptionError';
  }
}

export function rate(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new ServerOptionError(name, `must be a number >= 0, got ${value}`);
  return value;
}

export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new ServerOptionError(name, `must be a positive integer, got ${value}`);
  return value;
}

const shown = (text: string) => JSON.stringify(text.slice(0, 200));

function parsedUrl(name: string, url: string, protocols: readonly string[]): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServerOptionError(name, `must be a URL, got ${shown(url)}`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ServerOptionError(name, `must be a ${protocols.join(' or ')}// URL, got ${parsed.protocol}`);
  }
  return parsed;
}

export function sinkUrl(name: string, url: string, protocols: readonly string[]): string {
  parsedUrl(name, url, protocols);
  return url;
}

/** A NATS cluster's URLs, comma-separated (a client reaches the others when one is down); each is checked. */
export function natsUrls(name: string, urls: string): string {
  for (const url of urls.split(',')) parsedUrl(name, url.trim(), ['nats:', 'tls:']);
  return urls;
}

/**
 * A tile URL template: http(s) with {z}, {x} and {y}. Anything else would only show as a map that
 * never loads (and its host goes into the Content-Security-Policy).
 */
export function tileUrlOf(tileUrl: string | null | undefined, tileFile: string | null | undefined): string | null {
  if (!tileUrl) return null;
  if (tileFile) throw new ServerOptionError('tileUrl', 'and tileFile: give one, not both');
  parsedUrl('tileUrl', tileUrl, ['http:', 'https:']);
  const missing = ['{z}', '{x}', '{y}'].filter((part) => !tileUrl.includes(part));
  if (missing.length > 0) {
    throw new ServerOptionError(
      'tileUrl',
      `must hold {z}, {x} and {y} (missing ${missing.join(', ')}), got ${shown(tileUrl)}`,
    );
  }
  return tileUrl;
}

/** The dashboard's default basemap: OpenFreeMap's Liberty style (no key, no limits; attribution in the style). */
export const DEFAULT_MAP_STYLE = 'https://tiles.openfreemap.org/styles/liberty';

/**
 * The MapLibre style the dashboard draws: an http(s) URL; null or 'none' for the offline outline.
 * Unset, the default style, unless a raster template (tileUrl) or a local tile file (tileFile) is
 * the basemap: those are the operator's choice, and a second basemap under them would only cost
 * requests to a third party.
 */
export function mapStyleOf(
  mapStyle: string | null | undefined,
  tileUrl: string | null | undefined,
  tileFile: string | null | undefined,
): string | null {
  if (mapStyle === undefined) return tileUrl || tileFile ? null : DEFAULT_MAP_STYLE;
  if (mapStyle === null || mapStyle === 'none') return null;
  if (tileUrl || tileFile) {
    throw new ServerOptionError('mapStyle', `and ${tileUrl ? 'tileUrl' : 'tileFile'}: give one basemap, not both`);
  }
  parsedUrl('mapStyle', mapStyle, ['http:', 'https:']);
  return mapStyle;
}

/** CORS origins as a browser sends them: scheme, host and port, nothing else ("https://app.example"). */
export function corsOriginsOf(origins: readonly string[] | undefined): string[] {
  for (const origin of origins ?? []) {
    const parsed = parsedUrl('corsOrigins', origin, ['http:', 'https:']);
    if (parsed.origin !== origin.replace(/\/$/, '')) {
      throw new ServerOptionError(
        'corsOrigins',
        `must be origins such as https://app.example (no path), got ${shown(origin)}`,
      );
    }
  }
  return (origins ?? []).map((origin) => origin.replace(/\/$/, ''));
}

/** The shortest metrics token taken: 16 characters of base64 are 96 bits (as the CLI's admin token). */
const MIN_METRICS_TOKEN_CHARS = 16;

export function metricsTokenOf(token: string | undefined): string | null {
  if (token === undefined || token === '') return null;
  if (token.length < MIN_METRICS_TOKEN_CHARS)
    throw new ServerOptionError(
      'metricsToken',
      `is ${token.length} characters long; it needs ${MIN_METRICS_TOKEN_CHARS} at least (make one with: openssl rand -base64 24)`,
    );
  return token;
}
