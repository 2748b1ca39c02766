import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Database, Queryable } from '../db/database.js';
import { HttpError } from '../errors.js';
import {
  consumeRefreshToken,
  findUsedRefreshToken,
  insertRefreshToken,
  revokeRefreshFamily,
} from '../store/refresh-tokens.js';
import { markCredentialed } from '../store/device-keys.js';
import { orgOfDevice } from '../store/orgs.js';
import { JWT_ALG, type SigningKey } from './signing-key.js';

const ISSUER = 'waypost';
const AUDIENCE = 'waypost-device';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Epoch seconds when the access token expires. */
  expires: number;
  expiresIn: number;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A compact JWS has three base64url parts: anything else in a Bearer header is not our token. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/** Who a verified access token speaks for. */
export type TokenSubject =
  | { kind: 'device'; deviceId: string; org: string | null; issuedAt?: number }
  | { kind: 'org'; org: string }
  | { kind: 'admin' };

/** Subjects of tokens that are not a device's: `sub` is `<scope>:<org>`, with a `scope` claim. */
type Scope = 'org' | 'admin';

/**
 * A used refresh token presented again this soon after its use is taken for the same client racing
 * itself (two requests with one token): refused, nothing revoked. Later, it is a replay (the token
 * was copied): the whole family is revoked, so whichever party holds the newer token loses it too
 * (reuse detection, OAuth 2.1 section 4.3.1).
 */
export const REFRESH_REUSE_GRACE_MS = 5_000;

/** What a refresh by Bearer access token learns from the token presented. */
export interface RefreshableToken {
  deviceId: string;
  org: string | null;
  /** When it was issued (epoch ms). */
  issuedAt: number;
  /** When its chain began (epoch ms): the registration or refresh-token use behind it. */
  authTime: number;
}

export interface IssueOptions {
  /** The refresh-token family to continue; none: the first of a new family (a registration). */
  family?: string;
  /** The org of a device registered through one (looked up when not given); it rides in the access token. */
  org?: string | null;
  /**
   * When the chain of tokens began (epoch ms; default now). A refresh by access token alone keeps
   * it, so a leaked access token cannot be renewed past the refresh-token lifetime.
   */
  authTime?: number;
}

export interface TokenService {
  issue(tx: Queryable, deviceId: string, options?: IssueOptions): Promise<TokenPair>;
  /**
   * Uses a refresh token (once) and issues the next pair of its family; 401 when it is unknown,
   * used, revoked or expired. A replayed token revokes its family (see REFRESH_REUSE_GRACE_MS).
   */
  refresh(db: Database, refreshToken: string, org?: string | null): Promise<{ deviceId: string; pair: TokenPair }>;
  /** Who an access token speaks for; 401 when it is invalid or expired. */
  verify(accessToken: string): Promise<TokenSubject>;
  /**
   * A device access token that may have expired, as a refresh by Bearer access token (the anchor's
   * way) needs: the signature must verify and the token must be younger than the refresh-token
   * lifetime; 401 otherwise.
   */
  verifyForRefresh(accessToken: string): Promise<RefreshableToken>;
  /** A read-only token for an org's dashboard, or (no org) the admin's, lasting the access lifetime. */
  issueScoped(scope: Scope, org: string | null): Promise<{ accessToken: string; expires: number }>;
}

function subjectOf(payload: JWTPayload): TokenSubject {
  if (!payload.sub) throw new HttpError(401, 'INVALID_TOKEN', 'The access token names no device (sub)');
  const org = typeof payload.org === 'string' ? payload.org : null;
  if (payload.scope === 'admin') return { kind: 'admin' };
  if (payload.scope === 'org' && org !== null) return { kind: 'org', org };
  // When it was issued (epoch ms): a revocation refuses the tokens issued before it (health/refused-credentials.ts).
  return {
    kind: 'device',
    deviceId: payload.sub,
    org,
    ...(payload.iat === undefined ? {} : { issuedAt: payload.iat * 1000 }),
  };
}

/** Verified access tokens remembered at most (the cache is emptied when full). */
const MAX_VERIFIED = 10_000;

export function createTokenService(
  key: SigningKey,
  options: { accessTtlSeconds: number; refreshTtlSeconds: number; now: () => number },
): TokenService {
  // A device sends the same access token with every upload until it expires: verifying its
  // signature once is enough. An entry is used only while the token's exp is ahead (as jose checks).
  const verified = new Map<string, { subject: TokenSubject; exp: number }>();
  const sign = async (subject: string, claims: JWTPayload) => {
    const iat = Math.floor(options.now() / 1000);
    const expires = iat + options.accessTtlSeconds;
    const accessToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: JWT_ALG, kid: key.kid })
      .setSubject(subject)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(expires)
      .sign(key.privateKey);
    return { accessToken, expires };
  };
  const verifyOptions = () => ({
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: [JWT_ALG],
    currentDate: new Date(options.now()),
  });
  const issue = async (tx: Queryable, deviceId: string, how: IssueOptions = {}): Promise<TokenPair> => {
    const now = options.now();
    // Every route that issues a device's tokens (the anchor's or Waypost's) keeps its org in them.
    const org = how.org !== undefined ? how.org : await orgOfDevice(tx, deviceId);
    const authTime = Math.floor((how.authTime ?? now) / 1000);
    const { accessToken, expires } = await sign(deviceId, { auth_time: authTime, ...(org ? { org } : {}) });
    const family = how.family;
    // A device given tokens is never written without a credential again (issue 41 item 5).
    if (family === undefined) await markCredentialed(tx, deviceId, now);
    const refreshToken = randomBytes(32).toString('base64url');
    const hash = hashToken(refreshToken);
    await insertRefreshToken(
      tx,
      { hash, deviceId, family: family ?? hash },
      now,
      now + options.refreshTtlSeconds * 1000,
    );
    return { accessToken, refreshToken, expires, expiresIn: options.accessTtlSeconds };
  };
  return {
    issue,
    async refresh(db, refreshToken, org) {
      const hash = hashToken(refreshToken);
      const renewed = await db.transaction(async (tx) => {
        const consumed = await consumeRefreshToken(tx, hash, options.now());
        if (!consumed) return null;
        return {
          deviceId: consumed.deviceId,
          pair: await issue(tx, consumed.deviceId, { family: consumed.family, org }),
        };
      });
      if (renewed) return renewed;
      // Outside the failed transaction, so that the revocation is committed.
      const used = await findUsedRefreshToken(db, hash);
      const now = options.now();
      if (used && now - used.usedAt > REFRESH_REUSE_GRACE_MS) {
        await revokeRefreshFamily(db, used.family, now);
        throw new HttpError(
          401,
          'REFRESH_TOKEN_REUSED',
          'This refresh token was already used: every token issued from it is now revoked; register again',
        );
      }
      throw new HttpError(
        401,
        'INVALID_REFRESH_TOKEN',
        'The refresh token is unknown, already used, revoked or expired: register again',
      );
    },
    async issueScoped(scope, org) {
      return sign(`${scope}:${org ?? ''}`, org === null ? { scope } : { scope, org });
    },
    async verifyForRefresh(accessToken) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(accessToken, key.publicKey, verifyOptions()));
      } catch (error) {
        // jose checks the signature before the claims: an expired token's payload is authentic.
        if (!(error instanceof errors.JWTExpired)) {
          throw new HttpError(401, 'INVALID_TOKEN', 'The access token is not valid for this server');
        }
        payload = error.payload;
      }
      const subject = subjectOf(payload);
      const issuedAt = payload.iat ?? 0;
      const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : issuedAt;
      if (subject.kind !== 'device' || Math.floor(options.now() / 1000) - authTime > options.refreshTtlSeconds) {
        throw new HttpError(401, 'INVALID_TOKEN', 'This access token cannot be refreshed: register again');
      }
      return { deviceId: subject.deviceId, org: subject.org, issuedAt: issuedAt * 1000, authTime: authTime * 1000 };
    },
    async verify(accessToken) {
      const known = verified.get(accessToken);
      if (known && known.exp > Math.floor(options.now() / 1000)) return known.subject;
      try {
        const { payload } = await jwtVerify(accessToken, key.publicKey, verifyOptions());
        const subject = subjectOf(payload);
        if (payload.exp !== undefined) {
          if (verified.size >= MAX_VERIFIED) verified.clear();
          verified.set(accessToken, { subject, exp: payload.exp });
        }
        return subject;
      } catch (error) {
        if (error instanceof HttpError) throw error;
        if (error instanceof errors.JWTExpired) {
          throw new HttpError(401, 'TOKEN_EXPIRED', 'The access token has expired: refresh it at POST /auth/refresh');
        }
        throw new HttpError(401, 'INVALID_TOKEN', 'The access token is not valid for this server');
      }
    },
  };
}
