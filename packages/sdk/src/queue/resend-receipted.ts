import type { Config } from '../config/types.js';
import { countOf, normalize, type Range } from '../ledger/ranges.js';
import type { SdkLogger } from '../log/logger.js';
import type { StoredRecord } from '../ports/store.js';
import type { ReceiptKeeper } from '../receipts/receipt-keeper.js';
import type { BatchSender } from './send-batch.js';

/** The log code of numbers a server asked for again that this device no longer holds. */
export const RECEIPTED_LOST = 'RECEIPTED_LOST';

/**
 * A repair (issue 46): the archived records the server at `http.url` asked for again
 * (resendReceipted), re-sent to that URL only, in batches as the queue's (same uuids and JSON, so
 * the server stores nothing twice). What the archive no longer holds is told lost with the next
 * upload (an empty one when nothing else is sent), never asked of the archive again: a request for
 * numbers the device never had is answered with what it has, not an error loop. Answers whether
 * the flush may go on (false: a request failed; the repair stays for the next flush).
 */
export async function resendReceipted(
  receipts: ReceiptKeeper,
  sender: BatchSender,
  config: Config,
  logger: SdkLogger,
): Promise<boolean> {
  const url = config.http.url!;
  const work = await receipts.repairWork(url);
  if (!work) return true;
  if (work.lost.length > 0) {
    logger.warn(
      'HTTP',
      `${RECEIPTED_LOST}: the server asked again for ${countOf(work.lost)} receipted records this device no longer holds; told as lost after acknowledgement`,
    );
    await receipts.repaired(url, work.epoch, work.lost);
  }
  const { http } = config;
  const size = http.batchSync ? (http.maxBatchSize === -1 ? 1000 : http.maxBatchSize) : 1;
  // Not queue rows: ids below zero, which no store has, so settling them touches no queued record.
  const records: StoredRecord[] = work.records.map((r, i) => ({
    id: -(i + 1),
    uuid: r.uuid,
    json: r.json,
    createdAt: r.archivedAt,
    locked: true,
  }));
  if (records.length === 0) {
    // Only lost numbers: an empty upload tells them (it carries the claim), when there is one to
    // carry them: numbers this URL never receipted are not this device's to report.
    if ((await receipts.claim(url)) === null) return true;
    return (await sender.send([], config, 0)).delivered;
  }
  logger.info('HTTP', `RESEND ${records.length} receipted records the server asked for again`);
  for (let i = 0; i < records.length; i += size) {
    const part = records.slice(i, i + size);
    const sent = await sender.send(part, config, 0);
    if (!sent.delivered) return false;
    const numbers = work.records.slice(i, i + size).map((r): Range => [r.sequence, r.sequence]);
    await receipts.repaired(url, work.epoch, normalize(numbers));
  }
  return true;
}
