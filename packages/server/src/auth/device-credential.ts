import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { credentialRequired } from '../ingest/device-policy.js';
import { noteRefusedCredentials } from '../health/refused-credentials.js';
import { credentialedAmong, findDeviceKey, type KeyLookup } from '../store/device-keys.js';
import { bearerOf, principalOf, wrongDeviceToken, type Principal } from './principal.js';
import { hashToken } from './tokens.js';

/**
 * Device keys (issue 40): long-lived, revocable credentials for trackers that cannot refresh a
 * token (OwnTracks, OsmAnd, Traccar Client, Overland, GPSLogger, the Capacitor plugin). The prefix
 * tells a key from a JWT, an admin token or an integrator's own header at a glance, in every place
 * a tracker can carry one.
 */
export const DEVICE_KEY_PREFIX = 'wpk_';
const DEVICE_KEY = /^wpk_[\w-]{43}$/;
/** The query parameter of apps that can only be given a URL (OsmAnd, Traccar Client); the request log redacts `key`. */
export const DEVICE_KEY_PARAM = 'key';

export const looksLikeDeviceKey = (text: string): boolean => DEVICE_KEY.test(text);

/** A new key, and the hash that is all the server keeps of it. */
export function generateDeviceKey(): { key: string; hash: string } {
  const key = `${DEVICE_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashToken(key) };
}

/** Where an upload carried a device key, read the way each tracker can send one. */
export type PresentedKey = { key: string; via: 'bearer' | 'basic' | 'url' } | null;

type Headers = Record<string, string | string[] | undefined>;

/**
 * The device key a request carries, if any: `Authorization: Bearer <key>` (Overland, GPSLogger,
 * the Capacitor plugin, traccar-client-sdk), HTTP Basic with the key as password (OwnTracks: the
 * user is free, X-Limit-U/D or the user names the device), else `?key=` in the URL (OsmAnd,
 * Traccar Client: apps given only a URL). A Bearer header that holds no key (a JWT, an admin
 * token) wins over the URL: it is the caller's credential, judged as such. Pure.
 */
export function presentedKey(headers: Headers, query: unknown): PresentedKey {
  const header = headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') {
    const [scheme, value = ''] = header.trim().split(/\s+/, 2);
    if (/^bearer$/i.test(scheme!)) return looksLikeDeviceKey(value) ? { key: value, via: 'bearer' } : null;
    if (/^basic$/i.test(scheme!)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      if (decoded.includes(':') && looksLikeDeviceKey(password)) return { key: password, via: 'basic' };
    }
    if (looksLikeDeviceKey(header.trim())) return { key: header.trim(), via: 'bearer' };
  }
  const param = (query as Record<string, unknown> | undefined)?.[DEVICE_KEY_PARAM];
  return typeof param === 'string' && looksLikeDeviceKey(param) ? { key: param, via: 'url' } : null;
}

/** The URL's parameters without the device key: apps' parameters are kept with records (OsmAnd's extras), a key never. */
export function withoutDeviceKey<T extends Record<string, unknown>>(query: T): T {
  if (!(DEVICE_KEY_PARAM in query)) return query;
  const { [DEVICE_KEY_PARAM]: _key, ...rest } = query;
  return rest as T;
}

/** The codes of refused device credentials, counted by code (waypost_uploads_refused_total). */
export type RefusedCredentialCode = 'KEY_REVOKED' | 'WRONG_KEY' | 'CREDENTIAL_REQUIRED';

/** A key's device, or why it is refused. Pure. */
export function decideKey(lookup: KeyLookup): { deviceId: string } | HttpError {
  if (lookup === null) {
    return new HttpError(
      401,
      'WRONG_KEY',
      'This device key is not one this server made (copied in part, or made by another server)',
    );
  }
  if (lookup.revoked) {
    return new HttpError(
      401,
      'KEY_REVOKED',
      "This device key was revoked or replaced: enter the device's new key (the dashboard's device panel)",
    );
  }
  return { deviceId: lookup.deviceId };
}

/**
 * Whether an upload may write for `named` devices. A device that holds a token or a key is never
 * written without one, whatever requireTokens says (issue 41 item 5): an anonymous upload naming
 * it is refused, so no one can forge its positions by naming it. Devices that never had a
 * credential (the anchor's open mode, trackers set up without one) still take anonymous uploads
 * unless tokens are required. Pure.
 */
export function decideAnonymousWrite(principal: Principal, credentialed: readonly string[]): HttpError | null {
  if (principal.kind === 'device' || principal.kind === 'admin' || credentialed.length === 0) return null;
  return credentialRequired(credentialed[0]!);
}

export function countRefused(ctx: AppContext, code: RefusedCredentialCode): void {
  ctx.metrics.refusedCredentials.set(code, (ctx.metrics.refusedCredentials.get(code) ?? 0) + 1);
}

/**
 * The device a presented key speaks for; 401 KEY_REVOKED or WRONG_KEY, counted. A revoked key is
 * still that device's (its hash matched): the device health notes the refused request, as for a
 * revoked token, so a tracker still trying with its old key does not look merely silent.
 */
async function keyPrincipal(ctx: AppContext, request: FastifyRequest, key: string): Promise<Principal> {
  const lookup = await findDeviceKey(ctx.db, hashToken(key));
  const decision = decideKey(lookup);
  if (decision instanceof HttpError) {
    countRefused(ctx, decision.code as RefusedCredentialCode);
    if (lookup) await noteRefusedCredentials(ctx, request, lookup.deviceId, 'KEY_REVOKED');
    throw decision;
  }
  return { kind: 'device', deviceId: decision.deviceId, org: null };
}

/**
 * The uploading device's principal, by a device key (any of the places a tracker can carry one)
 * or a device access token; 401 when tokens are required and neither was sent.
 */
export async function uploaderOf(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const key = presentedKey(request.headers, request.query);
  const principal = key ? await keyPrincipal(ctx, request, key.key) : await principalOf(ctx, request);
  if (principal.kind === 'org') {
    throw new HttpError(403, 'FORBIDDEN', 'An org token reads; uploads need a device access token or key');
  }
  if (ctx.options.requireTokens && principal.kind !== 'device') {
    // A token was sent and it is none of this server's: "wrong", not "send one" (issue 40.8).
    if (bearerOf(request) !== null) throw wrongDeviceToken();
    throw new HttpError(
      401,
      'TOKEN_REQUIRED',
      'This server requires a device credential: a device access token (POST /auth/register) or a device key',
    );
  }
  return principal;
}

/**
 * Refuses (401 CREDENTIAL_REQUIRED, counted) an upload without a device credential that would
 * write for a device holding one. One read by primary key per anonymous upload; uploads with a
 * token or key pay nothing.
 */
export async function refuseAnonymousWrite(
  ctx: AppContext,
  principal: Principal,
  deviceIds: readonly string[],
): Promise<void> {
  if (principal.kind === 'device' || principal.kind === 'admin') return;
  const refusal = decideAnonymousWrite(principal, await credentialedAmong(ctx.db, [...new Set(deviceIds)]));
  if (!refusal) return;
  countRefused(ctx, 'CREDENTIAL_REQUIRED');
  throw refusal;
}
