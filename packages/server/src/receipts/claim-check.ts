import {
  normalizeRanges as normalize,
  parseReceiptedHeader,
  subtractRanges as subtract,
  type SequenceRange as Range,
} from '@waypost/sdk/internal';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Database } from '../db/database.js';
import type { Command } from '../store/commands.js';
import { heldRanges, insertGaps, readGaps } from './acknowledged-gaps.js';
import { receiptSigner } from './receipt-keys.js';

/**
 * A device's claim is checked whole (the span of its receipts against what the server holds) on its
 * first upload after this process starts, and again after this long; in between only the numbers
 * beyond the last check. A restore or a failover that restarts the server is found at the first
 * upload; records lost behind a running server's back within RECHECK_MS.
 */
export const RECHECK_MS = 10 * 60 * 1000;
/** Ranges one resendReceipted asks for at most (the device's claim is bounded the same). */
const MAX_ASKED_RANGES = 256;

const checks = new WeakMap<Database, Map<string, { through: number; fullAt: number }>>();

/**
 * What the device's Waypost-Receipted header (issue 46) makes the server do, after the request's
 * records are committed: the claim's proof is verified with the server's own keys (for this
 * device and numbering; nothing beyond the highest number it signed is read), the numbers the
 * device proved acknowledged that the server no longer holds are noted and asked for again
 * (the resendReceipted command in this answer), and numbers the device says it no longer has,
 * among those asked, are noted lost after acknowledgement. Returns the command, or null.
 */
export async function repairCommandFor(
  ctx: AppContext,
  request: FastifyRequest,
  deviceId: string,
  header: string,
): Promise<Command | null> {
  const parsed = parseReceiptedHeader(header);
  if (!parsed.ok) {
    request.log.warn({ code: 'RECEIPTED_HEADER_INVALID' }, `Waypost-Receipted header ignored: ${parsed.why}`);
    return null;
  }
  const { claim } = parsed;
  const proof = (await receiptSigner(ctx.db)).verify(claim.proof);
  if (!proof || proof.dev !== deviceId || proof.ep !== claim.epoch) {
    request.log.warn(
      { code: 'RECEIPT_PROOF_INVALID' },
      'Waypost-Receipted ignored: its proof is not a receipt this server signed for this device and numbering',
    );
    return null;
  }
  const top = proof.r.at(-1)![1];
  const held = subtract(claim.held, [[top + 1, Number.MAX_SAFE_INTEGER]]);
  if (held.length === 0) return null;
  const now = ctx.now();
  const key = `${deviceId}\u0000${claim.epoch ?? ''}`;
  const seen = checks.get(ctx.db) ?? new Map<string, { through: number; fullAt: number }>();
  checks.set(ctx.db, seen);
  const last = seen.get(key);
  const full = !last || now - last.fullAt >= RECHECK_MS;
  const span: Range = [full ? held[0]![0] : last.through + 1, held.at(-1)![1]];
  const claimed = subtract(held, [
    [1, span[0] - 1],
    [span[1] + 1, Number.MAX_SAFE_INTEGER],
  ]);
  const gaps = (await readGaps(ctx.db, deviceId)).get(claim.epoch ?? '') ?? { asked: [], lost: [] };
  // Only what was asked can be lost after acknowledgement.
  const asked = normalize(claim.lost);
  const newlyLost = subtract(subtract(asked, subtract(asked, gaps.asked)), gaps.lost);
  if (newlyLost.length > 0) await insertGaps(ctx.db, deviceId, claim.epoch, 'lost', newlyLost, now);
  const lost = normalize([...gaps.lost, ...newlyLost]);
  const missing =
    claimed.length === 0
      ? []
      : subtract(subtract(claimed, await heldRanges(ctx.db, deviceId, claim.epoch, span[0], span[1])), lost);
  const fresh = subtract(missing, gaps.asked);
  if (fresh.length > 0) await insertGaps(ctx.db, deviceId, claim.epoch, 'asked', fresh, now);
  // Checked through the claim's end when nothing is missing; else the gap is looked at again.
  seen.set(key, {
    through: missing.length === 0 ? span[1] : Math.min(span[1], missing[0]![0] - 1),
    fullAt: full ? now : last.fullAt,
  });
  if (missing.length === 0) return null;
  return ['resendReceipted', { epoch: claim.epoch, ranges: missing.slice(0, MAX_ASKED_RANGES) }];
}
