/**
 * Tokens in a --config file are a seed, not the truth. The SDK refreshes the access token and
 * servers rotate refresh tokens (Waypost's spends each one and, when a spent one comes back,
 * revokes the whole family as a replay); the new tokens are saved in the agent's database. If
 * every start applied the file's tokens again, the first restart after a refresh (systemd's
 * `Restart=always`, a reboot) would send the spent refresh token and lock the device out. So the
 * file's tokens are applied when they are new to this database (the first start, or an operator
 * who put fresh ones in the file) and left out while they are the ones applied before.
 */
import { createHash } from 'node:crypto';
import type { ConfigInput } from '@waypost/node';

/** The agent's key in the shared database: a digest of the tokens the file last seeded (never the tokens). */
export const SEED_KEY = 'agent.configTokens';

/** The keys of `authorization` that the SDK changes on its own when it refreshes. */
const ROTATED_KEYS = ['accessToken', 'refreshToken', 'expires'] as const;
/** The anchor's registration answer, applied as authorization tokens (see transistor-token.ts). */
const TRANSISTOR_KEY = 'transistorAuthorizationToken';

export interface SeedCredentials {
  /** Digest of the file's tokens; null when the file holds none. */
  digest: string | null;
  /** The configuration without those tokens (what to apply when they were seeded already). */
  withoutTokens: ConfigInput;
}

export function seedCredentials(config: ConfigInput): SeedCredentials {
  const input = config as Record<string, unknown>;
  const authorization = input['authorization'];
  const auth = authorization !== null && typeof authorization === 'object' ? { ...authorization } : null;
  const seeded: Record<string, unknown> = {};
  if (auth) {
    for (const key of ROTATED_KEYS) {
      if (key in auth) seeded[key] = (auth as Record<string, unknown>)[key];
      delete (auth as Record<string, unknown>)[key];
    }
  }
  if (input[TRANSISTOR_KEY] !== undefined) seeded[TRANSISTOR_KEY] = input[TRANSISTOR_KEY];
  if (Object.keys(seeded).length === 0) return { digest: null, withoutTokens: config };
  const rest: Record<string, unknown> = { ...input };
  delete rest[TRANSISTOR_KEY];
  if (auth) rest['authorization'] = auth;
  const digest = createHash('sha256').update(JSON.stringify(seeded)).digest('hex');
  return { digest, withoutTokens: rest as ConfigInput };
}

/** Pure: the file's tokens are applied unless this database got exactly these from it before. */
export function tokensToApply(seed: SeedCredentials, seededBefore: string | undefined): 'file' | 'database' {
  return seed.digest !== null && seed.digest === seededBefore ? 'database' : 'file';
}
