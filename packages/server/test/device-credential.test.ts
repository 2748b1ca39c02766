// Where each tracker carries a device key, and the two decisions on it (issue 40, issue 41 item 5):
// tables written here, from the apps' settings in docs/trackers.md, not from the code's own.
import { describe, expect, it } from 'vitest';
import { decideAnonymousWrite, decideKey, presentedKey, withoutDeviceKey } from '../src/auth/device-credential.js';

const KEY = `wpk_${'a1B2-_'.repeat(7)}x`; // 43 characters after the prefix, base64url
const OTHER_KEY = `wpk_${'Z'.repeat(43)}`;
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';

describe('the device key a request carries', () => {
  it.each([
    ['Bearer (Overland, GPSLogger, Capacitor)', { authorization: `Bearer ${KEY}` }, {}, { key: KEY, via: 'bearer' }],
    ['lower-case scheme', { authorization: `bearer ${KEY}` }, {}, { key: KEY, via: 'bearer' }],
    ['a bare key (SAS style)', { authorization: KEY }, {}, { key: KEY, via: 'bearer' }],
    ['HTTP Basic password (OwnTracks)', { authorization: basic(`jane:${KEY}`) }, {}, { key: KEY, via: 'basic' }],
    ['HTTP Basic, empty user', { authorization: basic(`:${KEY}`) }, {}, { key: KEY, via: 'basic' }],
    ['?key= (OsmAnd, Traccar Client)', {}, { key: KEY }, { key: KEY, via: 'url' }],
    [
      'a header key over a URL key',
      { authorization: `Bearer ${KEY}` },
      { key: OTHER_KEY },
      { key: KEY, via: 'bearer' },
    ],
    [
      'a JWT in the header: judged as such, the URL key ignored',
      { authorization: `Bearer ${JWT}` },
      { key: KEY },
      null,
    ],
    [
      'a Basic password that is no key: the URL key',
      { authorization: basic('jane:secret') },
      { key: KEY },
      { key: KEY, via: 'url' },
    ],
    ['Basic with no colon', { authorization: basic(KEY) }, {}, null],
    ['a key one character short', { authorization: `Bearer ${KEY.slice(0, -1)}` }, {}, null],
    ['a repeated ?key= (an array)', {}, { key: [KEY, KEY] }, null],
    ['nothing', {}, {}, null],
  ])('%s', (_name, headers, query, expected) => {
    expect(presentedKey(headers, query)).toEqual(expected);
  });

  it('is dropped from the parameters kept with a record', () => {
    expect(withoutDeviceKey({ id: 'osmand-phone', lat: '1', key: KEY })).toEqual({ id: 'osmand-phone', lat: '1' });
  });
});

describe('a key, and an upload without one', () => {
  it.each([
    ['unknown', null, { statusCode: 401, code: 'WRONG_KEY' }],
    ['revoked or replaced', { deviceId: 'd', revoked: true }, { statusCode: 401, code: 'KEY_REVOKED' }],
    ['in force', { deviceId: 'd', revoked: false }, { deviceId: 'd' }],
  ])('%s', (_name, lookup, expected) => {
    expect(decideKey(lookup)).toMatchObject(expected);
  });

  const anonymous = { kind: 'anonymous' } as const;
  it.each([
    ['anonymous, naming no credentialed device', anonymous, [], null],
    ['anonymous, naming one', anonymous, ['d'], { statusCode: 401, code: 'CREDENTIAL_REQUIRED' }],
    ["the device's own credential", { kind: 'device', deviceId: 'd', org: null } as const, ['d'], null],
    ['the admin token', { kind: 'admin', via: 'secret' } as const, ['d'], null],
  ])('%s', (_name, principal, credentialed, expected) => {
    const decision = decideAnonymousWrite(principal, credentialed);
    if (expected === null) expect(decision).toBeNull();
    else expect(decision).toMatchObject(expected);
  });
});
