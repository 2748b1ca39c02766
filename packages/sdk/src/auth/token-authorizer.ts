import type { AuthorizationConfig, Config } from '../config/types.js';
import type { AuthorizationEvent } from '../events/types.js';
import { mergeHeaders } from '../http/headers.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import type { Authorizer } from './authorizer.js';
import { refreshRetryAt } from './refresh-backoff.js';
import { parseTokenResponse } from './token-response.js';

export type AuthorizationStatus = 'none' | 'ok' | 'backoff' | 'failed';

export interface TokenAuthorizerDeps {
  config: () => Config;
  saveTokens: (patch: Partial<AuthorizationConfig>) => Promise<void>;
  transport: Transport;
  clock: Clock;
  logger: SdkLogger;
  emit: (event: AuthorizationEvent) => void;
  random?: () => number;
}

/** A token expiring within this margin is refreshed before the upload rather than after a 401. */
export const EXPIRY_MARGIN_MS = 30_000;

/** Expiry in epoch ms: seconds, or milliseconds when the number is > 1e12 (DESIGN 4). */
function expiresAtMs(expires: number): number | null {
  if (expires < 0) return null;
  return expires > 1e12 ? expires : expires * 1000;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function formEncode(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/**
 * Authorization of spec section 5 as DESIGN 4 decides it: the header injected on every upload,
 * refresh after a 401 or once `expires` has passed, tokens persisted, and refreshing that never
 * loops. Every refresh counts as an attempt until an upload is accepted, and attempts back off
 * with jitter, so neither a failing refresh endpoint nor a server that answers 401 even to fresh
 * tokens can make the SDK refresh in a loop. A refused refresh token (400/401/403) stops
 * refreshing until the authorization configuration changes.
 */
export class TokenAuthorizer implements Authorizer {
  /** Refreshes since the last accepted upload. */
  private attempts = 0;
  private lastRefreshFailed = false;
  private retryAt = 0;
  private refusedFor: string | null = null;
  private inFlight: Promise<boolean> | null = null;

  constructor(private readonly deps: TokenAuthorizerDeps) {}

  get status(): AuthorizationStatus {
    const { accessToken, refreshToken } = this.deps.config().authorization;
    if (!accessToken && !refreshToken) return 'none';
    if (this.refusedFor !== null && this.refusedFor === refreshToken) return 'failed';
    if (this.lastRefreshFailed) return 'backoff';
    return 'ok';
  }

  /** A new authorization configuration ends the failed state and the backoff. */
  reset(): void {
    this.attempts = 0;
    this.lastRefreshFailed = false;
    this.retryAt = 0;
    this.refusedFor = null;
  }

  uploadAccepted(): void {
    this.attempts = 0;
    this.retryAt = 0;
  }

  async headers(): Promise<Record<string, string>> {
    const auth = this.deps.config().authorization;
    const expiresAt = expiresAtMs(auth.expires);
    if (expiresAt !== null && this.deps.clock.now() + EXPIRY_MARGIN_MS >= expiresAt && this.canRefresh()) {
      this.deps.logger.info('Auth', 'access token expired: refreshing before the upload');
      await this.refresh();
    }
    return this.authorizationHeader();
  }

  async refreshAfterUnauthorized(): Promise<boolean> {
    if (!this.canRefresh()) return false;
    this.deps.logger.info('Auth', 'upload answered 401: refreshing the access token');
    return this.refresh();
  }

  private authorizationHeader(): Record<string, string> {
    const { strategy, accessToken } = this.deps.config().authorization;
    const headers: Record<string, string> = {};
    if (accessToken) headers['authorization'] = strategy === 'JWT' ? `Bearer ${accessToken}` : accessToken;
    return headers;
  }

  private configured(auth: AuthorizationConfig): boolean {
    return Boolean(auth.refreshUrl && auth.refreshToken && Object.keys(auth.refreshPayload).length > 0);
  }

  private canRefresh(): boolean {
    const auth = this.deps.config().authorization;
    if (!this.configured(auth)) return false;
    if (this.refusedFor !== null && this.refusedFor === auth.refreshToken) return false;
    return this.deps.clock.now() >= this.retryAt;
  }

  /** One refresh at a time: concurrent callers share the same attempt. */
  private refresh(): Promise<boolean> {
    this.inFlight ??= this.performRefresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async performRefresh(): Promise<boolean> {
    this.attempts++;
    this.retryAt = refreshRetryAt(this.attempts, this.deps.clock.now(), (this.deps.random ?? Math.random)());
    const { http, authorization: auth } = this.deps.config();
    const substitute = (value: string) =>
      value.replaceAll('{refreshToken}', auth.refreshToken ?? '').replaceAll('{accessToken}', auth.accessToken ?? '');
    const payload = Object.fromEntries(Object.entries(auth.refreshPayload).map(([k, v]) => [k, substitute(v)]));
    const integratorHeaders = Object.fromEntries(
      Object.entries(http.headers).filter(([name]) => name.toLowerCase() !== 'content-type'),
    );
    const refreshHeaders = Object.fromEntries(Object.entries(auth.refreshHeaders).map(([k, v]) => [k, substitute(v)]));
    const headers = mergeHeaders(
      integratorHeaders,
      { 'content-type': 'application/x-www-form-urlencoded' },
      refreshHeaders,
    );
    let answer: HttpResponse;
    try {
      answer = await this.deps.transport.send({
        url: auth.refreshUrl!,
        method: 'POST',
        headers,
        body: formEncode(payload),
        timeoutMs: http.timeout,
      });
    } catch (error) {
      return this.failed(0, `refresh request failed: ${(error as Error).message}`, null, false);
    }
    const status = answer.status;
    const body = parseJson(answer.text);
    const response =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    if (status < 200 || status >= 300) {
      // The server refused this refresh token: trying it again cannot succeed.
      const refused = status === 400 || status === 401 || status === 403;
      return this.failed(status, `refresh answered ${status}`, response, refused);
    }
    const tokens = parseTokenResponse(body, this.deps.clock.now());
    if (!tokens) return this.failed(status, 'refresh response holds no access token', response, false);
    this.lastRefreshFailed = false;
    await this.deps.saveTokens({
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      expires: tokens.expires,
    });
    this.deps.logger.info(
      'Auth',
      `access token refreshed (expires ${tokens.expires === -1 ? 'unknown' : new Date(tokens.expires * 1000).toISOString()})`,
    );
    this.deps.emit({ status, success: true, error: null, response });
    return true;
  }

  private failed(status: number, error: string, response: Record<string, unknown> | null, refused: boolean): false {
    this.lastRefreshFailed = true;
    if (refused) {
      this.refusedFor = this.deps.config().authorization.refreshToken;
      this.deps.logger.error(
        'Auth',
        `${error}: the refresh token was refused; no more refreshes until the authorization configuration changes`,
      );
    } else {
      this.deps.logger.warn('Auth', `${error}; next refresh not before ${new Date(this.retryAt).toISOString()}`);
    }
    this.deps.emit({ status, success: false, error, response });
    return false;
  }
}
