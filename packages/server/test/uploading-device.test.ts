import { describe, expect, it } from 'vitest';
import { uploadingDevice, type DeviceNames } from '../src/ingest/uploading-device.js';

const none: DeviceNames = { token: null, body: null, outside: null };

describe('the device of an upload: the token, else the body, else the header or query', () => {
  it.each([
    ['a token alone', { ...none, token: 'tok' }, { deviceId: 'tok', source: 'token' }],
    [
      'a token over a body naming another device',
      { ...none, token: 'tok', body: 'other' },
      { deviceId: 'tok', source: 'token' },
    ],
    ['a token over a header', { ...none, token: 'tok', outside: 'hdr' }, { deviceId: 'tok', source: 'token' }],
    ['a token over both', { token: 'tok', body: 'other', outside: 'hdr' }, { deviceId: 'tok', source: 'token' }],
    ['the body without a token', { ...none, body: 'body' }, { deviceId: 'body', source: 'body' }],
    ['the body over the header', { ...none, body: 'body', outside: 'hdr' }, { deviceId: 'body', source: 'body' }],
    ['the header or query alone', { ...none, outside: 'hdr' }, { deviceId: 'hdr', source: 'outside' }],
    ['nothing at all', none, null],
  ])('%s', (_case, names, expected) => {
    expect(uploadingDevice(names)).toEqual(expected);
  });
});
