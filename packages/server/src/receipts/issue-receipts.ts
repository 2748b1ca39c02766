import { normalizeRanges, receiptDigest, type SequenceRange } from '@waypost/sdk/internal';
import type { StoredRecord } from '../ingest/normalize.js';
import type { ReceiptSigner } from './receipt-keys.js';

/**
 * The receipts for one device's committed records of a request (issue 46): one per numbering
 * (epoch) the records name, covering the numbered records the server now holds (stored, or
 * duplicates of records it held already), never those it quarantined. Records without a sequence
 * number are not receipted (the device cannot be asked for them by number).
 */
export async function issueReceipts(
  signer: ReceiptSigner,
  deviceId: string,
  records: readonly StoredRecord[],
  quarantined: ReadonlySet<string>,
  nowMs: number,
): Promise<string[]> {
  const byEpoch = new Map<string | null, { sequence: number; uuid: string }[]>();
  for (const record of records) {
    if (record.sequence === null || quarantined.has(record.uuid)) continue;
    const epoch = record.sequenceEpoch ?? null;
    const list = byEpoch.get(epoch) ?? [];
    list.push({ sequence: record.sequence, uuid: record.uuid });
    byEpoch.set(epoch, list);
  }
  const receipts: string[] = [];
  for (const [epoch, list] of byEpoch) {
    // A number sent twice in one request (two records claiming it) cannot be receipted for either.
    const seen = new Map<number, number>();
    for (const r of list) seen.set(r.sequence, (seen.get(r.sequence) ?? 0) + 1);
    const single = list.filter((r) => seen.get(r.sequence) === 1);
    if (single.length === 0) continue;
    const ranges = normalizeRanges(single.map((r): SequenceRange => [r.sequence, r.sequence]));
    receipts.push(
      signer.sign({
        v: 1,
        dev: deviceId,
        ep: epoch,
        r: ranges,
        d: await receiptDigest(single),
        t: Math.floor(nowMs / 1000),
      }),
    );
  }
  return receipts;
}
