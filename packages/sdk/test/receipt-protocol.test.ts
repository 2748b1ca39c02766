// The receipt protocol's pure parts (issue 46): the receipt and claim headers read strictly and
// bounded (hostile input refused whole), and key pinning by trust on first use with endorsed
// rotation. The signatures are made here with node:crypto, the SDK verifies with WebCrypto.
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  encodePayload,
  importReceiptKey,
  parseReceipt,
  parseReceiptKeyHeader,
  receiptDigest,
  verifySigned,
} from '../src/receipts/receipt.js';
import { pinReceiptKey } from '../src/receipts/receipt-pins.js';
import { formatReceiptedHeader, parseReceiptedHeader } from '../src/receipts/receipted-header.js';

const keyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, x: publicKey.export({ format: 'jwk' }).x! };
};
const b64 = (bytes: Buffer) => bytes.toString('base64url');

describe('receipt header', () => {
  const payload = { v: 1 as const, kid: 'k1', dev: 'd', ep: 'e', r: [[1, 3]] as [number, number][], d: 'x', t: 1 };
  it.each([
    ['not two parts', 'abc', false],
    ['three parts', 'a.b.c', false],
    ['not base64url', '!!.AA', false],
    ['payload not JSON', `${b64(Buffer.from('nope'))}.AA`, false],
    ['a range going down', `${encodePayload({ ...payload, r: [[3, 1]] })}.AA`, false],
    [
      'too many ranges',
      `${encodePayload({ ...payload, r: Array.from({ length: 300 }, (_, i) => [2 * i + 1, 2 * i + 1] as [number, number]) })}.AA`,
      false,
    ],
    ['too long', `${'A'.repeat(9000)}.AA`, false],
    ['a version 1 receipt', `${encodePayload(payload)}.AA`, true],
  ])('%s', (_name, value, ok) => {
    expect(parseReceipt(value).ok).toBe(ok);
  });

  it('the digest depends on the records, not on their order in the batch', async () => {
    const a = await receiptDigest([
      { sequence: 2, uuid: 'b' },
      { sequence: 1, uuid: 'a' },
    ]);
    expect(a).toBe(
      await receiptDigest([
        { sequence: 1, uuid: 'a' },
        { sequence: 2, uuid: 'b' },
      ]),
    );
    expect(a).not.toBe(
      await receiptDigest([
        { sequence: 1, uuid: 'a' },
        { sequence: 2, uuid: 'c' },
      ]),
    );
  });
});

describe('claim header (Waypost-Receipted)', () => {
  it('round trips', () => {
    const claim = {
      epoch: 'e1',
      held: [
        [1, 5],
        [7, 7],
      ] as [number, number][],
      lost: [[3, 4]] as [number, number][],
      proof: 'p.q',
    };
    expect(parseReceiptedHeader(formatReceiptedHeader(claim))).toEqual({ ok: true, claim });
  });
  it.each([
    ['no proof', 'held=1-5'],
    ['an unknown member', 'held=1-5;proof=p.q;x=1'],
    ['a range going down', 'held=5-1;proof=p.q'],
    ['not numbers', 'held=a-b;proof=p.q'],
    ['too many ranges', `held=${Array.from({ length: 300 }, (_, i) => 2 * i + 1).join(',')};proof=p.q`],
  ])('refuses %s', (_name, value) => {
    expect(parseReceiptedHeader(value).ok).toBe(false);
  });
});

describe('key pinning', () => {
  const first = keyPair();
  const second = keyPair();
  const endorsement = b64(sign(null, Buffer.from(`k2.${second.x}`), first.privateKey));
  it.each([
    ['the first key is pinned', {}, 'k1', `k1.${first.x}`, { ok: true, pinned: true }],
    ['a pinned key verifies', { k1: first.x }, 'k1', `k1.${first.x}`, { ok: true, pinned: false }],
    [
      'the same kid with another key is refused',
      { k1: first.x },
      'k1',
      `k1.${second.x}`,
      { ok: false, code: 'RECEIPT_KEY_CHANGED' },
    ],
    [
      'a new kid without endorsement is refused',
      { k1: first.x },
      'k2',
      `k2.${second.x}`,
      { ok: false, code: 'RECEIPT_KEY_CHANGED' },
    ],
    [
      'a new kid endorsed by the pinned key is pinned',
      { k1: first.x },
      'k2',
      `k2.${second.x}.k1.${endorsement}`,
      { ok: true, pinned: true },
    ],
    [
      'a forged endorsement is refused',
      { k1: first.x },
      'k2',
      `k2.${second.x}.k1.${b64(Buffer.alloc(64))}`,
      { ok: false, code: 'RECEIPT_KEY_CHANGED' },
    ],
    ['no key presented for an unknown kid', {}, 'k1', null, { ok: false, code: 'RECEIPT_KEY_UNKNOWN' }],
  ])('%s', async (_name, pins, kid, header, expected) => {
    const result = await pinReceiptKey(pins, kid, header === null ? null : parseReceiptKeyHeader(header));
    expect(result).toMatchObject(expected);
  });
});

describe('receipt key import', () => {
  it('imports a pinned key once: every later upload verifies with the same key object', async () => {
    const { privateKey, x } = keyPair();
    const key = await importReceiptKey(x);
    expect(key).not.toBeNull();
    expect(await importReceiptKey(x)).toBe(key);
    const signature = new Uint8Array(sign(null, Buffer.from('a.b'), privateKey));
    expect(await verifySigned(key!, 'a.b', signature)).toBe(true);
    expect(await verifySigned(key!, 'a.c', signature)).toBe(false);
  });

  it('keeps no broken key: a key that is not Ed25519 is refused each time', async () => {
    expect(await importReceiptKey(b64(Buffer.alloc(31)))).toBeNull();
    expect(await importReceiptKey(b64(Buffer.alloc(31)))).toBeNull();
  });
});
