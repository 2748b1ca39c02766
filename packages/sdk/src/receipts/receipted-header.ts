import { normalize, type Range } from '../ledger/ranges.js';
import { MAX_RECEIPT_CHARS } from './receipt.js';

/**
 * How far a device's receipts go (issue 46), told with its uploads and presence reports to a
 * server that offers receipts, so that a server restored from a backup, or failed over to a
 * replica that was behind, learns what it had acknowledged:
 *
 *   Waypost-Receipted: epoch=<id>;held=1-500,502-900;lost=401-450;proof=<receipt>
 *
 * `held`: the numbers of that numbering the device holds receipts for from this URL; `proof`: the
 * newest of those receipts (the server checks its own signature, and reads no claim beyond the
 * highest number it signed); `lost`: numbers the server asked for again that the device no longer
 * has (acknowledged, then lost by the server: the receipts are the proof). `epoch` is left out for
 * a numbering older than epochs.
 */
export const RECEIPTED_HEADER = 'waypost-receipted';
/** Ranges named per member at most (a longer claim keeps its newest ranges). */
export const MAX_CLAIM_RANGES = 256;

export interface ReceiptClaim {
  epoch: string | null;
  held: Range[];
  lost: Range[];
  proof: string;
}

const rangesText = (ranges: readonly Range[]) => ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');

export function formatReceiptedHeader(claim: ReceiptClaim): string {
  return [
    ...(claim.epoch === null ? [] : [`epoch=${claim.epoch}`]),
    `held=${rangesText(claim.held.slice(-MAX_CLAIM_RANGES))}`,
    ...(claim.lost.length > 0 ? [`lost=${rangesText(claim.lost.slice(0, MAX_CLAIM_RANGES))}`] : []),
    `proof=${claim.proof}`,
  ].join(';');
}

const NUMBER = /^[1-9]\d{0,15}$/;

function parseRanges(text: string): Range[] | null {
  if (text === '') return [];
  const items = text.split(',');
  if (items.length > MAX_CLAIM_RANGES) return null;
  const ranges: Range[] = [];
  for (const item of items) {
    const [a, b, more] = item.split('-');
    if (more !== undefined || !NUMBER.test(a ?? '') || (b !== undefined && !NUMBER.test(b))) return null;
    const from = Number(a);
    const to = b === undefined ? from : Number(b);
    if (to < from || !Number.isSafeInteger(to)) return null;
    ranges.push([from, to]);
  }
  return normalize(ranges);
}

/** The claim, or why the header is ignored (strict and bounded: anything else is refused whole). */
export function parseReceiptedHeader(value: string): { ok: true; claim: ReceiptClaim } | { ok: false; why: string } {
  if (value.length > MAX_RECEIPT_CHARS * 2) return { ok: false, why: 'too long' };
  const claim: ReceiptClaim = { epoch: null, held: [], lost: [], proof: '' };
  for (const part of value.trim().split(';')) {
    const at = part.indexOf('=');
    const [key, text] = at < 0 ? [part, ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (key === 'epoch' && /^[A-Za-z0-9_-]{1,64}$/.test(text)) claim.epoch = text;
    else if (key === 'held' || key === 'lost') {
      const ranges = parseRanges(text);
      if (!ranges) return { ok: false, why: `${key} is not a list of sequence numbers or ranges` };
      claim[key] = ranges;
    } else if (key === 'proof' && text !== '') claim.proof = text;
    else return { ok: false, why: `unknown member "${key.slice(0, 20)}"` };
  }
  if (claim.proof === '') return { ok: false, why: 'no proof' };
  return { ok: true, claim };
}
