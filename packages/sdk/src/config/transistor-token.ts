import { WaypostError } from '../errors.js';
import { CONFIG_FIELDS } from './fields.js';
import { validateField } from './validate-field.js';
import type { GroupName } from './types.js';

export const TRANSISTOR_TOKEN_KEY = 'transistorAuthorizationToken';

/** The anchor demo server's device API, relative to the token's url. */
export const LOCATIONS_PATH = '/api/locations';
/** The anchor's demo server: where its registration goes, and a token without a url points. */
export const ANCHOR_DEMO_SERVER_URL = 'https://tracker.transistorsoft.com';
export const REFRESH_TOKEN_PATH = '/api/refresh_token';

function invalid(field: string, value: unknown, expected: string): never {
  const key = `${TRANSISTOR_TOKEN_KEY}.${field}`;
  throw new WaypostError(
    'INVALID_CONFIG',
    `${key}: ${JSON.stringify(value) ?? String(value)} is not allowed; expected ${expected}.`,
    key,
  );
}

/** The base URL without a trailing slash, so paths join cleanly. */
export function baseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * `transistorAuthorizationToken` as the anchor applies it (its TransistorAuthorizationService
 * .applyIf): uploads go to `${url}/api/locations` with the token as a JWT, refreshed at
 * `${url}/api/refresh_token` with `refresh_token={refreshToken}`. It overrides any url and
 * authorization given beside it, as the anchor's does.
 */
export function applyTransistorToken(groups: Record<GroupName, Record<string, unknown>>, token: unknown): void {
  if (token === null || typeof token !== 'object' || Array.isArray(token)) {
    invalid('', token, 'an object { accessToken, refreshToken, expires, url }');
  }
  const t = token as Record<string, unknown>;
  // v4 declares url optional: a token without one is the demo server's, as the anchor applies it.
  const url = t.url ?? ANCHOR_DEMO_SERVER_URL;
  if (typeof url !== 'string') invalid('url', t.url, 'the server URL');
  if (typeof t.accessToken !== 'string' || t.accessToken.length === 0)
    invalid('accessToken', '<hidden>', 'a non-empty string');
  if (typeof t.refreshToken !== 'string') invalid('refreshToken', '<hidden>', 'a string');
  const expires = t.expires ?? -1;
  const base = baseUrl(url);
  const set = (group: GroupName, field: string, value: unknown) => {
    const spec = (CONFIG_FIELDS[group] as Record<string, Parameters<typeof validateField>[1]>)[field]!;
    groups[group][field] = validateField(`${TRANSISTOR_TOKEN_KEY}.${field}`, spec, value);
  };
  set('http', 'url', base + LOCATIONS_PATH);
  set('authorization', 'strategy', 'JWT');
  set('authorization', 'accessToken', t.accessToken);
  set('authorization', 'refreshToken', t.refreshToken.length > 0 ? t.refreshToken : null);
  set('authorization', 'refreshUrl', base + REFRESH_TOKEN_PATH);
  set('authorization', 'refreshPayload', { refresh_token: '{refreshToken}' });
  set('authorization', 'expires', expires);
}
