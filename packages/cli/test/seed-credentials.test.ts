import { describe, expect, it } from 'vitest';
import { seedCredentials, tokensToApply } from '../src/agent/seed-credentials.js';

const AUTH = {
  strategy: 'JWT',
  accessToken: 'a1',
  refreshToken: 'r1',
  expires: 1000,
  refreshUrl: 'http://h/auth/refresh',
};

describe("the --config file's tokens are a seed", () => {
  it('splits the rotated tokens off, keeping the rest of the configuration', () => {
    const seed = seedCredentials({ http: { url: 'http://h/locations' }, authorization: AUTH } as never);
    expect(seed.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(seed.digest).not.toContain('r1');
    expect(seed.withoutTokens).toEqual({
      http: { url: 'http://h/locations' },
      authorization: { strategy: 'JWT', refreshUrl: 'http://h/auth/refresh' },
    });
  });

  it("counts the anchor's transistorAuthorizationToken as tokens", () => {
    const token = { accessToken: 'a', refreshToken: 'r', expires: 1, url: 'http://h' };
    const seed = seedCredentials({ transistorAuthorizationToken: token } as never);
    expect(seed.digest).not.toBeNull();
    expect(seed.withoutTokens).toEqual({});
  });

  it('a file without tokens has nothing to seed', () => {
    const config = { http: { url: 'http://h/locations' }, authorization: { refreshUrl: 'http://h/r' } };
    expect(seedCredentials(config as never)).toEqual({ digest: null, withoutTokens: config });
  });

  it.each([
    ['first start', undefined, 'file'],
    ['the same tokens as last time', 'same', 'database'],
    ['new tokens in the file', 'other', 'file'],
  ] as const)('%s: tokens from the %s', (_, before, expected) => {
    const seed = seedCredentials({ authorization: AUTH } as never);
    const seededBefore = before === 'same' ? seed.digest! : before === 'other' ? 'f'.repeat(64) : undefined;
    expect(tokensToApply(seed, seededBefore)).toBe(expected);
  });
});
