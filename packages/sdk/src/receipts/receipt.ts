import { normalize, type Range } from '../ledger/ranges.js';

/**
 * Delivery receipts (issue 46): what a Waypost server signs when it answers an upload 2xx, so a
 * device can keep what it delivered for a while and later prove what the server acknowledged
 * (after a restore from backup, a failover to a replica that was behind).
 *
 * Negotiated like the health report: a server says it issues receipts with
 * `Waypost-Receipts-Offered: 1` on its upload answers; the SDK then asks for one with
 * `Waypost-Receipts: 1` (never to a server that did not offer, so a third-party server sees
 * exactly today's requests), and a 2xx answer carries
 *
 *   Waypost-Receipt: <payload>.<signature>
 *
 * the payload a base64url JSON ReceiptPayload, the signature Ed25519 over the payload's text (its
 * base64url form, as JWS does), by the key `kid` of the server's published key set
 * (GET /.well-known/waypost-receipt-keys, a JWKS of OKP/Ed25519 keys). The answer also carries
 * `Waypost-Receipt-Key: <kid>.<x>` (x: the raw public key, base64url), which the SDK pins per upload
 * URL on first use: a receipt under another key for the same kid, or under a kid the pinned key did
 * not endorse, is refused (RECEIPT_KEY_CHANGED). A rotated key is endorsed by the previous one:
 * `Waypost-Receipt-Key: <kid>.<x>.<previous kid>.<signature of "<kid>.<x>" by the previous key>`.
 */
export const RECEIPTS_OFFERED_HEADER = 'waypost-receipts-offered';
export const RECEIPTS_HEADER = 'waypost-receipts';
export const RECEIPT_HEADER = 'waypost-receipt';
export const RECEIPT_KEY_HEADER = 'waypost-receipt-key';
/** The route of the server's receipt key set (a JWKS). */
export const RECEIPT_KEYS_PATH = '/.well-known/waypost-receipt-keys';

/** A receipt header is at most this long, and names at most this many ranges. */
export const MAX_RECEIPT_CHARS = 8192;
export const MAX_RECEIPT_RANGES = 256;

/** What a receipt says: this server committed these sequence numbers of this device's numbering. */
export interface ReceiptPayload {
  v: 1;
  /** The signing key's id. */
  kid: string;
  /** The device the records were stored for. */
  dev: string;
  /** The numbering (sequence_epoch), null for records sent without one. */
  ep: string | null;
  /** The sequence numbers committed, normalized ranges. */
  r: Range[];
  /** receiptDigest of the committed records. */
  d: string;
  /** When the server committed them, epoch seconds (its clock). */
  t: number;
}

/** One committed record as the digest sees it. */
export interface ReceiptedRecord {
  sequence: number;
  uuid: string;
}

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * SHA-256 over "<sequence> <uuid>\n" of each committed record, in ascending sequence order,
 * base64url: a device recomputes it from the records it sent, so a receipt proves which records
 * (not only which numbers) the server holds.
 */
export async function receiptDigest(records: readonly ReceiptedRecord[]): Promise<string> {
  const text = [...records]
    .sort((a, b) => a.sequence - b.sequence)
    .map((r) => `${r.sequence} ${r.uuid}\n`)
    .join('');
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** The payload's base64url text: what is signed. */
export const encodePayload = (payload: ReceiptPayload): string => base64url(encoder.encode(JSON.stringify(payload)));

const isRange = (value: unknown): value is Range =>
  Array.isArray(value) &&
  value.length === 2 &&
  Number.isSafeInteger(value[0]) &&
  Number.isSafeInteger(value[1]) &&
  value[0] >= 1 &&
  value[0] <= value[1];

/** A receipt's parts, or why it cannot be read (bounded: hostile input is refused whole). */
export function parseReceipt(
  value: string,
):
  | { ok: true; payload: ReceiptPayload; signed: string; signature: Uint8Array<ArrayBuffer> }
  | { ok: false; why: string } {
  if (value.length > MAX_RECEIPT_CHARS) return { ok: false, why: `longer than ${MAX_RECEIPT_CHARS} characters` };
  const [signed, sig, extra] = value.trim().split('.');
  const signature = sig === undefined ? null : fromBase64url(sig);
  const bytes = signed === undefined ? null : fromBase64url(signed);
  if (extra !== undefined || !signature || !bytes) return { ok: false, why: 'not <payload>.<signature>' };
  let payload: ReceiptPayload;
  try {
    payload = JSON.parse(new TextDecoder().decode(bytes)) as ReceiptPayload;
  } catch {
    return { ok: false, why: 'the payload is not JSON' };
  }
  if (
    payload?.v !== 1 ||
    typeof payload.kid !== 'string' ||
    typeof payload.dev !== 'string' ||
    !(payload.ep === null || typeof payload.ep === 'string') ||
    !Array.isArray(payload.r) ||
    payload.r.length > MAX_RECEIPT_RANGES ||
    !payload.r.every(isRange) ||
    typeof payload.d !== 'string' ||
    !Number.isSafeInteger(payload.t)
  ) {
    return { ok: false, why: 'the payload is not a version 1 receipt' };
  }
  return { ok: true, payload: { ...payload, r: normalize(payload.r) }, signed: signed!, signature };
}

/** A WebCrypto key, named without the DOM library (the core builds for every platform). */
export type ReceiptKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** Keys imported lately, by their raw form: a URL's pinned key is imported once, not per upload. */
const imported = new Map<string, ReceiptKey>();
const MAX_IMPORTED_KEYS = 16;

/** An Ed25519 public key from its raw base64url form (JWK `x`). */
export async function importReceiptKey(x: string): Promise<ReceiptKey | null> {
  const known = imported.get(x);
  if (known !== undefined) return known;
  const raw = fromBase64url(x);
  if (!raw || raw.length !== 32) return null;
  try {
    const key = await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, true, ['verify']);
    if (imported.size >= MAX_IMPORTED_KEYS) imported.delete(imported.keys().next().value!);
    imported.set(x, key);
    return key;
  } catch {
    return null;
  }
}

/** Whether `signature` is `key`'s over `text`. */
export async function verifySigned(
  key: ReceiptKey,
  text: string,
  signature: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  try {
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, encoder.encode(text));
  } catch {
    return false;
  }
}

/** A `Waypost-Receipt-Key` value: the key, and the previous key's endorsement when rotated. */
export interface ReceiptKeyHeader {
  kid: string;
  x: string;
  endorsedBy?: { kid: string; signature: Uint8Array<ArrayBuffer> };
}

const KID = /^[A-Za-z0-9_-]{1,64}$/;

export function parseReceiptKeyHeader(value: string): ReceiptKeyHeader | null {
  if (value.length > 512) return null;
  const [kid, x, by, sig, extra] = value.trim().split('.');
  if (extra !== undefined || !kid || !KID.test(kid) || !x || fromBase64url(x)?.length !== 32) return null;
  if (by === undefined) return { kid, x };
  const signature = sig === undefined ? null : fromBase64url(sig);
  if (!KID.test(by) || !signature) return null;
  return { kid, x, endorsedBy: { kid: by, signature } };
}
