/**
 * Reads a token endpoint's answer with a fixed key priority (DESIGN 4), never by guessing: the
 * access token before an id token, and a refresh-token lifetime (Keycloak's refresh_expires_in)
 * is never mistaken for the access token's.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch seconds, or -1 when the answer says nothing about expiry. */
  expires: number;
}

const ACCESS_KEYS = ['access_token', 'accessToken', 'id_token', 'idToken', 'token'] as const;
const REFRESH_KEYS = ['refresh_token', 'refreshToken'] as const;
const ABSOLUTE_EXPIRY_KEYS = ['expires_at', 'expiresAt', 'expires', 'expiry'] as const;
const RELATIVE_EXPIRY_KEYS = ['expires_in', 'expiresIn'] as const;
/** Wrappers some servers put the token set in: `{ token: { access_token } }`, `{ data: {...} }`. */
const CONTAINERS = ['token', 'data', 'auth', 'result'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function firstString(source: Json, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return null;
}

/** Epoch seconds from a number (seconds, or milliseconds when > 1e12) or a date string. */
export function toEpochSeconds(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return value > 1e12 ? Math.floor(value / 1000) : Math.floor(value);
  }
  if (typeof value === 'string' && value.length > 0) {
    if (/^\d+$/.test(value)) return toEpochSeconds(Number(value));
    const parsed = Date.parse(value);
    if (Number.isFinite(parsed)) return Math.floor(parsed / 1000);
  }
  return null;
}

function expiry(source: Json, nowSeconds: number): number | null {
  for (const key of ABSOLUTE_EXPIRY_KEYS) {
    const seconds = toEpochSeconds(source[key]);
    if (seconds !== null) return seconds;
  }
  for (const key of RELATIVE_EXPIRY_KEYS) {
    const value = source[key];
    const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0)
      return Math.floor(nowSeconds + seconds);
  }
  return null;
}

/** The token set in a refresh response, or null when it holds no access token. */
export function parseTokenResponse(body: unknown, nowMs: number): TokenSet | null {
  if (!isObject(body)) return null;
  const nowSeconds = Math.floor(nowMs / 1000);
  const layers: Json[] = [body];
  for (const key of CONTAINERS) {
    const inner = body[key];
    if (isObject(inner)) layers.push(inner);
  }
  let accessToken: string | null = null;
  let refreshToken: string | null = null;
  let expires: number | null = null;
  for (const layer of layers) {
    // A string `token` is an access token only at the top level; nested, `token` is a container.
    accessToken ??= firstString(layer, layer === body ? ACCESS_KEYS : ACCESS_KEYS.filter((k) => k !== 'token'));
    refreshToken ??= firstString(layer, REFRESH_KEYS);
    expires ??= expiry(layer, nowSeconds);
  }
  if (!accessToken) return null;
  return { accessToken, refreshToken, expires: expires ?? -1 };
}
