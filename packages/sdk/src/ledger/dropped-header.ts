import type { DropReason } from '../events/types.js';
import { normalize, type Range } from './ranges.js';

/**
 * The tombstone protocol (issue 19). A Waypost SDK reports the sequence numbers it dropped on
 * purpose with its next upload, in a request header that servers which do not know it ignore:
 *
 *   Waypost-Dropped: ttl=5-9,12;cap=20-25;destroyed=30
 *
 * reasons `ttl`, `cap` and `destroyed` (what its onDrop reports), each with comma-separated
 * sequence numbers or inclusive ranges. Parsed strictly and bounded: anything else makes the whole
 * header ignored (the upload itself never fails for it). The SDK sends it only to a server that
 * answered an upload with `Waypost-Ledger: 1` (LEDGER_HEADER): a custom request header would make a
 * browser ask a foreign server's CORS preflight, which could refuse the upload.
 */
export const DROPPED_HEADER = 'waypost-dropped';
/** The response header by which a server says it reads DROPPED_HEADER (value `1`). */
export const LEDGER_HEADER = 'waypost-ledger';
/**
 * The response header by which a server says it keeps each numbering apart (value `1`; issue 39):
 * the SDK then names its numbering's epoch in the report (`epoch=<id>;ttl=5-9`). A server that
 * reads the header but not epochs would refuse such a report whole, so it never gets one.
 */
export const LEDGER_EPOCHS_HEADER = 'waypost-ledger-epochs';
export const DROP_REASONS: readonly DropReason[] = ['ttl', 'cap', 'destroyed'];

/** The header is at most this long, and names at most this many ranges. */
export const MAX_DROPPED_HEADER_CHARS = 4096;
export const MAX_DROPPED_RANGES = 256;

/** Reported ranges, each with the epoch of the numbering it belongs to when the header named one. */
export type DroppedReport = { reason: DropReason; range: Range; epoch?: string }[];

const NUMBER = /^[1-9]\d{0,15}$/;

/** The header's ranges, or why it is ignored. */
export function parseDroppedHeader(value: string): { ok: true; report: DroppedReport } | { ok: false; why: string } {
  // The epoch, when named, comes first (an SDK of issue 39 names it to a server that says it reads it).
  const named = EPOCH_PART.exec(value);
  const epoch = named ? named[1]! : null;
  const ranges = named ? value.slice(named[0].length) : value;
  if (ranges.length > MAX_DROPPED_HEADER_CHARS) {
    return { ok: false, why: `longer than ${MAX_DROPPED_HEADER_CHARS} characters` };
  }
  const report: DroppedReport = [];
  for (const part of ranges.split(';')) {
    const [reason, list, extra] = part.trim().split('=');
    if (extra !== undefined || list === undefined || !(DROP_REASONS as readonly string[]).includes(reason!.trim())) {
      return {
        ok: false,
        why: `"${part.trim().slice(0, 40)}" is not reason=ranges (reasons: ${DROP_REASONS.join(', ')})`,
      };
    }
    for (const item of list.split(',')) {
      const [a, b, more] = item.trim().split('-');
      if (more !== undefined || !NUMBER.test(a ?? '') || (b !== undefined && !NUMBER.test(b))) {
        return { ok: false, why: `"${item.trim().slice(0, 40)}" is not a sequence number or range` };
      }
      const from = Number(a);
      const to = b === undefined ? from : Number(b);
      if (to < from || !Number.isSafeInteger(to)) {
        return { ok: false, why: `range ${from}-${to} is not increasing or too large` };
      }
      report.push({ reason: reason!.trim() as DropReason, range: [from, to], ...(epoch === null ? {} : { epoch }) });
      if (report.length > MAX_DROPPED_RANGES) return { ok: false, why: `more than ${MAX_DROPPED_RANGES} ranges` };
    }
  }
  return { ok: true, report };
}

/** The leading `epoch=<id>;` of a header that names its numbering. */
const EPOCH_PART = /^\s*epoch=([A-Za-z0-9_-]{1,64})\s*;/;

/** Dropped sequence numbers waiting to be reported, per reason, as normalized ranges. */
export type PendingDrops = Record<DropReason, Range[]>;

export const noDrops = (): PendingDrops => ({ ttl: [], cap: [], destroyed: [] });

/**
 * The header for as much of `pending` as one header may carry (ranges in order, ttl then cap then
 * destroyed, within MAX_DROPPED_RANGES and MAX_DROPPED_HEADER_CHARS), and what it carries; null
 * when nothing is pending. The rest goes with a later upload.
 */
export function formatDroppedHeader(
  pending: PendingDrops,
  epoch: string | null = null,
): { value: string; sent: PendingDrops } | null {
  const sent = noDrops();
  const parts: string[] = [];
  let ranges = 0;
  let length = 0;
  for (const reason of DROP_REASONS) {
    const items: string[] = [];
    for (const range of normalize(pending[reason])) {
      const item = range[0] === range[1] ? `${range[0]}` : `${range[0]}-${range[1]}`;
      // The reason's "name=" (and the ";" before it) is paid with its first item.
      const cost = item.length + (items.length === 0 ? reason.length + 1 + (parts.length > 0 ? 1 : 0) : 1);
      if (ranges + 1 > MAX_DROPPED_RANGES || length + cost > MAX_DROPPED_HEADER_CHARS) break;
      items.push(item);
      sent[reason].push(range);
      ranges += 1;
      length += cost;
    }
    if (items.length > 0) parts.push(`${reason}=${items.join(',')}`);
  }
  if (parts.length === 0) return null;
  return { value: [...(epoch === null ? [] : [`epoch=${epoch}`]), ...parts].join(';'), sent };
}
