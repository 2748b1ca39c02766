import { normalize, type Range } from '../ledger/ranges.js';
import type { ArchiveEntry } from '../ports/archive.js';

/** What one day's receipts say a server holds (issue 46): `getReceipts()`, `waypost receipts`. */
export interface ReceiptDay {
  /** The UTC day the receipts were kept, YYYY-MM-DD. */
  day: string;
  /** The upload URL that receipted them. */
  url: string;
  /** The numbering (sequence_epoch); null for records numbered before epochs. */
  epoch: string | null;
  /** The sequence numbers receipted that day. */
  ranges: Range[];
  records: number;
  /** The highest number the server acknowledged, by the end of that day (for this URL and numbering). */
  upTo: number;
  receipts: number;
}

/** Kept receipts (oldest first) summed per UTC day, URL and numbering, oldest day first. */
export function receiptDays(entries: readonly ArchiveEntry[]): ReceiptDay[] {
  const days = new Map<string, ReceiptDay>();
  const highest = new Map<string, number>();
  for (const entry of entries) {
    const day = new Date(entry.at).toISOString().slice(0, 10);
    const stream = JSON.stringify([entry.url, entry.epoch]);
    const key = `${day} ${stream}`;
    const top = Math.max(highest.get(stream) ?? 0, entry.ranges.at(-1)?.[1] ?? 0);
    highest.set(stream, top);
    const summary = days.get(key) ?? {
      day,
      url: entry.url,
      epoch: entry.epoch,
      ranges: [],
      records: 0,
      upTo: 0,
      receipts: 0,
    };
    summary.ranges = normalize([...summary.ranges, ...entry.ranges]);
    summary.records = summary.ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
    summary.upTo = top;
    summary.receipts++;
    days.set(key, summary);
  }
  return [...days.values()];
}
