import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Database } from '../db/database.js';

export const JWT_ALG = 'ES256';
const SETTING = 'jwt.signing_key';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/**
 * The key pair access tokens are signed with: made on first start and kept in the database, so
 * tokens survive restarts and every process sharing the database accepts them. Processes starting
 * together race on the insert; all of them then read the one that won.
 */
export async function loadSigningKey(db: Database): Promise<SigningKey> {
  const existing = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [SETTING]);
  let stored = existing[0]?.value;
  if (!stored) {
    const { privateKey } = await generateKeyPair(JWT_ALG, { extractable: true });
    const jwk = await exportJWK(privateKey);
    const candidate = JSON.stringify({ ...jwk, kid: globalThis.crypto.randomUUID(), alg: JWT_ALG });
    await db.run(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [SETTING, candidate]);
    stored = (await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [SETTING]))[0]!.value;
  }
  const jwk = JSON.parse(stored) as JWK & { kid: string };
  const { d: _d, ...publicJwk } = jwk;
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, JWT_ALG)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, JWT_ALG)) as CryptoKey,
  };
}
