import { importReceiptKey, verifySigned, type ReceiptKey, type ReceiptKeyHeader } from './receipt.js';

/** Receipt keys pinned per upload URL: kid to raw public key (base64url). */
export type PinnedKeys = Record<string, Record<string, string>>;

export type PinResult =
  | { ok: true; key: ReceiptKey; pinned: boolean; pins: Record<string, string> }
  | { ok: false; code: 'RECEIPT_KEY_UNKNOWN' | 'RECEIPT_KEY_CHANGED'; why: string };

/** Keys pinned per URL at most (a server rotating for ever keeps the newest). */
export const MAX_PINNED_KEYS = 8;

/**
 * The key for a receipt signed by `kid`, by trust on first use: the first key an upload URL
 * presents is pinned; later a kid already pinned must present the same key, and a new kid must be
 * endorsed by a pinned one (a rotation, receipt.ts). Anything else is a changed key.
 */
export async function pinReceiptKey(
  pins: Record<string, string>,
  kid: string,
  presented: ReceiptKeyHeader | null,
): Promise<PinResult> {
  const known = pins[kid];
  if (known !== undefined) {
    if (presented && presented.kid === kid && presented.x !== known) {
      return { ok: false, code: 'RECEIPT_KEY_CHANGED', why: `key ${kid} is not the key pinned for this URL` };
    }
    const key = await importReceiptKey(known);
    return key ? { ok: true, key, pinned: false, pins } : { ok: false, code: 'RECEIPT_KEY_UNKNOWN', why: 'bad pin' };
  }
  if (!presented || presented.kid !== kid) {
    return { ok: false, code: 'RECEIPT_KEY_UNKNOWN', why: `the answer did not present key ${kid}` };
  }
  const key = await importReceiptKey(presented.x);
  if (!key) return { ok: false, code: 'RECEIPT_KEY_UNKNOWN', why: `key ${kid} is not an Ed25519 key` };
  if (Object.keys(pins).length > 0) {
    const by = presented.endorsedBy;
    const endorser = by && pins[by.kid] !== undefined ? await importReceiptKey(pins[by.kid]!) : null;
    if (!by || !endorser || !(await verifySigned(endorser, `${kid}.${presented.x}`, by.signature))) {
      return {
        ok: false,
        code: 'RECEIPT_KEY_CHANGED',
        why: `key ${kid} is new and not endorsed by a key pinned for this URL`,
      };
    }
  }
  const next = Object.fromEntries([...Object.entries(pins), [kid, presented.x]].slice(-MAX_PINNED_KEYS));
  return { ok: true, key, pinned: true, pins: next };
}
