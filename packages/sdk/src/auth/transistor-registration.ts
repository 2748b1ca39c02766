import { ANCHOR_DEMO_SERVER_URL, baseUrl, LOCATIONS_PATH } from '../config/transistor-token.js';
import type { TransistorAuthorizationToken } from '../config/input-types.js';
import type { DeviceInfo } from '../device.js';
import { WaypostError } from '../errors.js';
import type { SdkLogger } from '../log/logger.js';
import type { KeyValueStore } from '../ports/store.js';
import type { Transport } from '../ports/transport.js';

/** The anchor's default demo server. */
export const DEFAULT_REGISTRATION_URL = ANCHOR_DEMO_SERVER_URL;
export const REGISTER_PATH = '/api/register';
/**
 * What the anchor hands out when registration fails for a reason other than a refusal (no
 * network): uploads carry it, the server answers 406, and registration is tried again then.
 */
export const DUMMY_TOKEN = 'DUMMY_TOKEN';
const REGISTRATION_TIMEOUT_MS = 30_000;
const MAX_NAME_CHARS = 256;

const tokenKey = (url: string) => `transistor.token:${url}`;
/** The last registration asked for, so a 406 can register again with the same identity. */
export const REGISTRATION_KEY = 'transistor.registration';

export interface Registration {
  orgname: string;
  username: string;
  url: string;
}

export interface RegistrationDeps {
  transport: Transport;
  kv: KeyValueStore;
  device: DeviceInfo;
  logger: SdkLogger;
  /**
   * The running configuration's upload url and tokens. A token refreshed since registration lives
   * only there (a server that rotates refresh tokens has revoked the saved one), so it is found first.
   */
  current?: () => { url: string | null; accessToken: string | null; refreshToken: string | null; expires: number };
}

function checkName(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME_CHARS) {
    throw new WaypostError(
      'REGISTRATION_FAILED',
      `${field}: expected a string of 1 to ${MAX_NAME_CHARS} characters.`,
      field,
    );
  }
  return value;
}

function checkUrl(value: unknown): string {
  let parsed: URL | undefined;
  try {
    parsed = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new WaypostError('REGISTRATION_FAILED', 'url: expected an http:// or https:// URL.', 'url');
  }
  return baseUrl(parsed.origin + parsed.pathname);
}

function parseToken(text: string, url: string): TransistorAuthorizationToken | null {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.accessToken !== 'string' || body.accessToken.length === 0) return null;
    const refreshToken = typeof body.refreshToken === 'string' ? body.refreshToken : '';
    const expires = typeof body.expires === 'number' && Number.isFinite(body.expires) ? body.expires : -1;
    return { accessToken: body.accessToken, refreshToken, expires, url };
  } catch {
    return null;
  }
}

/**
 * The anchor's findOrCreateTransistorAuthorizationToken: the token registered for this url
 * before, or a new registration (`POST {url}/api/register` with the organization and the device's
 * description). A refusal (403) rejects with REGISTRATION_FAILED; any other failure resolves with
 * the anchor's DUMMY_TOKEN, which the server answers with 406 so registration is retried then.
 */
export async function findOrCreateToken(
  deps: RegistrationDeps,
  orgname: unknown,
  username: unknown,
  urlInput: unknown = DEFAULT_REGISTRATION_URL,
): Promise<TransistorAuthorizationToken> {
  const registration: Registration = {
    orgname: checkName('orgname', orgname),
    username: checkName('username', username),
    url: checkUrl(urlInput),
  };
  await deps.kv.set(REGISTRATION_KEY, JSON.stringify(registration));
  const saved = await deps.kv.get(tokenKey(registration.url));
  if (saved) {
    // Registered before (and not destroyed since): the running configuration's tokens are the
    // freshest when uploads go there (a refresh rotates them), else the ones saved at registration.
    const live = deps.current?.();
    if (live?.url === registration.url + LOCATIONS_PATH && live.accessToken && live.accessToken !== DUMMY_TOKEN) {
      const { accessToken, refreshToken, expires } = live;
      return { accessToken, refreshToken: refreshToken ?? '', expires, url: registration.url };
    }
    const token = parseToken(saved, registration.url);
    if (token) return token;
  }
  return register(deps, registration);
}

/** A new registration, whatever is saved (the 406 flow). */
export async function register(
  deps: RegistrationDeps,
  registration: Registration,
): Promise<TransistorAuthorizationToken> {
  const { device, logger } = deps;
  const { url } = registration;
  const host = new URL(url).host;
  let status = 0;
  let text = '';
  try {
    const response = await deps.transport.send({
      url: url + REGISTER_PATH,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        org: registration.orgname,
        username: registration.username,
        uuid: device.uuid,
        model: device.model,
        manufacturer: device.manufacturer,
        version: device.version,
        platform: device.platform,
        framework: 'waypost',
      }),
      timeoutMs: REGISTRATION_TIMEOUT_MS,
    });
    ({ status, text } = response);
  } catch (error) {
    logger.warn('Auth', `registration with ${host} failed: ${(error as Error).message}`);
  }
  if (status === 403) {
    logger.error('Auth', `registration with ${host} refused (403)`);
    throw new WaypostError('REGISTRATION_FAILED', `Registration with ${host} was refused (403).`);
  }
  const token = status >= 200 && status < 300 ? parseToken(text, url) : null;
  if (!token) {
    if (status !== 0) logger.warn('Auth', `registration with ${host} answered ${status} without a token`);
    return { accessToken: DUMMY_TOKEN, refreshToken: DUMMY_TOKEN, expires: -1, url };
  }
  await deps.kv.set(tokenKey(url), JSON.stringify(token));
  logger.info('Auth', `registered with ${host}`);
  return token;
}

/** The anchor's destroyTransistorAuthorizationToken: forgets the token saved for `url`. */
export async function destroyToken(kv: KeyValueStore, urlInput: unknown = DEFAULT_REGISTRATION_URL): Promise<void> {
  await kv.delete(tokenKey(checkUrl(urlInput)));
}

export async function savedRegistration(kv: KeyValueStore): Promise<Registration | null> {
  const text = await kv.get(REGISTRATION_KEY);
  if (!text) return null;
  try {
    return JSON.parse(text) as Registration;
  } catch {
    return null;
  }
}
