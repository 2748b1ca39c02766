import { describe, expect, it } from 'vitest';
import type { RegistrationMode } from '@waypost/server';
import { decideRegistration, type RegistrationCredentials } from '../src/auth/registration-policy.js';
import { tileSource } from '../src/http/security-headers.js';
import { redactUrl } from '../src/http/request-log.js';
import { takeToken } from '../src/rate-limit/token-bucket.js';

const none: RegistrationCredentials = { admin: false, device: null, secret: false };
const admin = { ...none, admin: true };
const itself = { ...none, device: 'd1' };
const another = { ...none, device: 'd2' };
const secret = { ...none, secret: true };

describe('decideRegistration', () => {
  const cases: [RegistrationMode, RegistrationCredentials, boolean, number | null][] = [
    // mode, who, the id exists already, expected status (null = allowed)
    ['open', none, false, null],
    ['open', none, true, 409],
    ['open', another, true, 409],
    ['open', secret, true, 409],
    ['open', itself, true, null],
    ['open', admin, true, null],
    ['secret', none, false, 401],
    ['secret', secret, false, null],
    ['secret', secret, true, 409],
    ['secret', itself, true, null],
    ['admin', none, false, 401],
    ['admin', secret, false, 401],
    ['admin', another, false, 401],
    ['admin', admin, false, null],
    ['admin', itself, true, null],
  ];
  it.each(cases)('%s mode, credentials %j, exists %s: %s', (mode, who, exists, status) => {
    const refusal = decideRegistration(mode, who, 'd1', exists);
    expect(refusal?.statusCode ?? null).toBe(status);
  });
});

describe('takeToken', () => {
  const rule = { ratePerSecond: 2, burst: 3 };
  it('spends the burst, then refuses with the seconds until a token is back, and refills with time', () => {
    let bucket = takeToken(undefined, rule, 0).bucket;
    bucket = takeToken(bucket, rule, 0).bucket;
    bucket = takeToken(bucket, rule, 0).bucket;
    expect(bucket.tokens).toBe(0);
    const refused = takeToken(bucket, rule, 0);
    expect(refused.retryAfterSeconds).toBe(1);
    expect(takeToken(refused.bucket, rule, 499).retryAfterSeconds).toBe(1);
    expect(takeToken(refused.bucket, rule, 500).retryAfterSeconds).toBeNull();
    // A long pause refills to the burst, never beyond.
    expect(takeToken(refused.bucket, rule, 60_000).bucket.tokens).toBe(2);
  });
  it('rounds Retry-After up for slow rates', () => {
    const slow = { ratePerSecond: 0.25, burst: 1 };
    const empty = takeToken(undefined, slow, 0).bucket;
    expect(takeToken(empty, slow, 0).retryAfterSeconds).toBe(4);
  });
});

describe('redactUrl and tileSource', () => {
  it.each([
    ['/api/events?token=abc', '/api/events?token=[REDACTED]'],
    ['/x?access_token=a&refresh_token=b&limit=5', '/x?access_token=[REDACTED]&refresh_token=[REDACTED]&limit=5'],
    ['/x?api_key=k&Secret=s&device_id=d', '/x?api_key=[REDACTED]&Secret=[REDACTED]&device_id=d'],
    ['/x?%74oken=a', '/x?%74oken=[REDACTED]'],
    ['/plain', '/plain'],
  ])('%s -> %s', (url, logged) => expect(redactUrl(url)).toBe(logged));

  it.each([
    ['https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://*.tile.openstreetmap.org'],
    ['https://tiles.example.com:8443/{z}/{x}/{y}.png', 'https://tiles.example.com:8443'],
    ['http://{s}-{r}.example.com/{z}', 'http:'],
    [null, null],
  ])('%s -> %s', (url, source) => expect(tileSource(url)).toBe(source));
});
