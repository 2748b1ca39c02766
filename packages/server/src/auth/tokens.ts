import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database, Queryable } from '../db/database.js';
import { HttpError } from '../errors.js';
import {
  consumeRefreshToken,
  findUsedRefreshToken,
  insertRefreshToken,
  revokeRefreshFamily,
} from '../store/refresh-tokens.js';
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

/**
 * A used refresh token presented again this soon after its use is taken for the same client racing
 * itself (two requests with one token): refused, nothing revoked. Later, it is a replay (the token
 * was copied): the whole family is revoked, so whichever party holds the newer token loses it too
 * (reuse detection, OAuth 2.1 section 4.3.1).
 */
export const REFRESH_REUSE_GRACE_MS = 5_000;

export interface TokenService {
  /** A new pair; without `family`, the first of a new refresh-token family (a registration). */
  issue(tx: Queryable, deviceId: string, family?: string): Promise<TokenPair>;
  /**
   * Uses a refresh token (once) and issues the next pair of its family; 401 when it is unknown,
   * used, revoked or expired. A replayed token revokes its family (see REFRESH_REUSE_GRACE_MS).
   */
  refresh(db: Database, refreshToken: string): Promise<{ deviceId: string; pair: TokenPair }>;
  /** The device an access token belongs to; 401 when it is invalid or expired. */
  verify(accessToken: string): Promise<string>;
}

/** Verified access tokens remembered at most (the cache is emptied when full). */
const MAX_VERIFIED = 10_000;

export function createTokenService(
  key: SigningKey,
  options: { accessTtlSeconds: number; refreshTtlSeconds: number; now: () => number },
): TokenService {
  // A device sends the same access token with every upload until it expires: verifying its
  // signature once is enough. An entry is used only while the token's exp is ahead (as jose checks).
  const verified = new Map<string, { deviceId: string; exp: number }>();
  const issue = async (tx: Queryable, deviceId: string, family?: string): Promise<TokenPair> => {
    const now = options.now();
    const iat = Math.floor(now / 1000);
    const expires = iat + options.accessTtlSeconds;
    const accessToken = await new SignJWT({})
      .setProtectedHeader({ alg: JWT_ALG, kid: key.kid })
      .setSubject(deviceId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(expires)
      .sign(key.privateKey);
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
    async refresh(db, refreshToken) {
      const hash = hashToken(refreshToken);
      const renewed = await db.transaction(async (tx) => {
        const consumed = await consumeRefreshToken(tx, hash, options.now());
        if (!consumed) return null;
        return { deviceId: consumed.deviceId, pair: await issue(tx, consumed.deviceId, consumed.family) };
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
    async verify(accessToken) {
      const known = verified.get(accessToken);
      if (known && known.exp > Math.floor(options.now() / 1000)) return known.deviceId;
      try {
        const { payload } = await jwtVerify(accessToken, key.publicKey, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: [JWT_ALG],
          currentDate: new Date(options.now()),
        });
        if (!payload.sub) throw new HttpError(401, 'INVALID_TOKEN', 'The access token names no device (sub)');
        if (payload.exp !== undefined) {
          if (verified.size >= MAX_VERIFIED) verified.clear();
          verified.set(accessToken, { deviceId: payload.sub, exp: payload.exp });
        }
        return payload.sub;
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
