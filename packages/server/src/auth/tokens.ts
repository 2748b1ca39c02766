import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database, Queryable } from '../db/database.js';
import { HttpError } from '../errors.js';
import { consumeRefreshToken, insertRefreshToken } from '../store/refresh-tokens.js';
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

export interface TokenService {
  issue(tx: Queryable, deviceId: string): Promise<TokenPair>;
  /** Uses a refresh token (once) and issues a new pair; 401 when it is unknown, used, revoked or expired. */
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
  const issue = async (tx: Queryable, deviceId: string): Promise<TokenPair> => {
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
    await insertRefreshToken(tx, hashToken(refreshToken), deviceId, now, now + options.refreshTtlSeconds * 1000);
    return { accessToken, refreshToken, expires, expiresIn: options.accessTtlSeconds };
  };
  return {
    issue,
    async refresh(db, refreshToken) {
      return db.transaction(async (tx) => {
        const deviceId = await consumeRefreshToken(tx, hashToken(refreshToken), options.now());
        if (!deviceId) {
          throw new HttpError(
            401,
            'INVALID_REFRESH_TOKEN',
            'The refresh token is unknown, already used, revoked or expired: register again',
          );
        }
        return { deviceId, pair: await issue(tx, deviceId) };
      });
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
