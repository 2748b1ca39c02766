import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { base64url, encodeReceiptPayload, parseReceipt, type ReceiptPayload } from '@waypost/sdk/internal';
import type { Database } from '../db/database.js';

/** The settings key of the receipt signing keys (newest first). */
const SETTING = 'receipts.signing_keys';
/** Keys kept after a rotation, newest first: receipts signed by older ones still verify. */
export const MAX_RECEIPT_KEYS = 4;

interface StoredKey {
  kid: string;
  /** The private key, PKCS#8 DER, base64url. */
  d: string;
  /** The raw public key, base64url (JWK x). */
  x: string;
  /** The previous key's signature over "<kid>.<x>" (a rotation), base64url. */
  endorsedBy?: { kid: string; sig: string };
}

export interface ReceiptSigner {
  kid: string;
  /** The signed receipt header value for a payload (its kid is set here). */
  sign(payload: Omit<ReceiptPayload, 'kid'>): string;
  /** The Waypost-Receipt-Key header value: the current key, with its endorsement when rotated. */
  keyHeader: string;
  /** A receipt's payload when one of this server's keys (current or kept) signed it, else null. */
  verify(receipt: string): ReceiptPayload | null;
  /** The published key set (a JWKS), newest first. */
  jwks: { keys: { kty: 'OKP'; crv: 'Ed25519'; alg: 'EdDSA'; use: 'sig'; kid: string; x: string }[] };
}

function newKey(previous: { kid: string; key: KeyObject } | null): StoredKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const kid = globalThis.crypto.randomUUID();
  const x = publicKey.export({ format: 'jwk' }).x!;
  const d = base64url(privateKey.export({ format: 'der', type: 'pkcs8' }));
  const endorsedBy = previous
    ? { kid: previous.kid, sig: base64url(sign(null, Buffer.from(`${kid}.${x}`), previous.key)) }
    : undefined;
  return { kid, d, x, ...(endorsedBy ? { endorsedBy } : {}) };
}

const privateOf = (stored: StoredKey): KeyObject =>
  createPrivateKey({ key: Buffer.from(stored.d, 'base64url'), format: 'der', type: 'pkcs8' });

async function readKeys(db: Database): Promise<StoredKey[] | null> {
  const [row] = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [SETTING]);
  return row ? (JSON.parse(row.value) as StoredKey[]) : null;
}

/**
 * The receipt signing keys (issue 46): made on first start and kept in the database's settings
 * (as the access-token key is), so every process sharing the database signs with the same key and
 * a restore from a backup brings back the key of that time (receipts made since still verify on
 * the devices, which pinned the key). Processes starting together race on the insert; all of them
 * read the one that won.
 */
export async function loadReceiptSigner(db: Database): Promise<ReceiptSigner> {
  let keys = await readKeys(db);
  if (!keys) {
    await db.run(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [
      SETTING,
      JSON.stringify([newKey(null)]),
    ]);
    keys = (await readKeys(db))!;
  }
  return signerOf(keys);
}

/**
 * A new current key, endorsed by the current one (devices that pinned it accept the new one);
 * older keys stay published until MAX_RECEIPT_KEYS is passed.
 */
export async function rotateReceiptKey(db: Database): Promise<ReceiptSigner> {
  const keys = (await readKeys(db)) ?? [];
  const current = keys[0];
  const next = [newKey(current ? { kid: current.kid, key: privateOf(current) } : null), ...keys];
  await db.run(
    `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [SETTING, JSON.stringify(next.slice(0, MAX_RECEIPT_KEYS))],
  );
  return signerOf(next);
}

function signerOf(keys: StoredKey[]): ReceiptSigner {
  const current = keys[0]!;
  const privateKey = privateOf(current);
  // Checked once: a stored key whose public half does not match is not used silently.
  if (createPublicKey(privateKey).export({ format: 'jwk' }).x !== current.x) {
    throw new Error(`the receipt key ${current.kid} in settings (${SETTING}) is damaged: its two halves differ`);
  }
  const endorsement = current.endorsedBy ? `.${current.endorsedBy.kid}.${current.endorsedBy.sig}` : '';
  return {
    kid: current.kid,
    sign(payload) {
      const text = encodeReceiptPayload({ ...payload, kid: current.kid } as ReceiptPayload);
      return `${text}.${base64url(sign(null, Buffer.from(text), privateKey))}`;
    },
    keyHeader: `${current.kid}.${current.x}${endorsement}`,
    verify(receipt) {
      const parsed = parseReceipt(receipt);
      const key = parsed.ok ? keys.find((k) => k.kid === parsed.payload.kid) : undefined;
      if (!parsed.ok || !key) return null;
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
      return verify(null, Buffer.from(parsed.signed), publicKey, parsed.signature) ? parsed.payload : null;
    },
    jwks: {
      keys: keys.map((k) => ({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: k.kid, x: k.x })),
    },
  };
}

const signers = new WeakMap<Database, Promise<ReceiptSigner>>();

/** The signer of this database, loaded once per process. */
export function receiptSigner(db: Database): Promise<ReceiptSigner> {
  let signer = signers.get(db);
  if (!signer) {
    signer = loadReceiptSigner(db);
    signers.set(db, signer);
    signer.catch(() => signers.delete(db));
  }
  return signer;
}

/** Rotates the key (rotateReceiptKey) and signs with the new one in this process from now on. */
export async function useRotatedKey(db: Database): Promise<ReceiptSigner> {
  const signer = rotateReceiptKey(db);
  signers.set(db, signer);
  signer.catch(() => signers.delete(db));
  return signer;
}
