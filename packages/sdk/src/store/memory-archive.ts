import type { ArchiveEntry, ArchivedRecord, ReceiptArchive } from '../ports/archive.js';
import type { StoredRecord } from '../ports/store.js';

const inRanges = (ranges: readonly (readonly [number, number])[], n: number): boolean =>
  ranges.some(([a, b]) => n >= a && n <= b);

/**
 * The receipt archive in memory (ports/archive.ts), over the memory store's records: `take`
 * removes a queued record and answers it (undefined when it is gone). Entries are kept oldest
 * first, as the SQLite archive keeps them.
 */
export function createMemoryArchive(take: (id: number) => StoredRecord | undefined): ReceiptArchive {
  let records: ArchivedRecord[] = [];
  let entries: ArchiveEntry[] = [];
  let bytes = 0;
  /** Keeps the records `keep` accepts, answering how many went. */
  const drop = (keep: (record: ArchivedRecord) => boolean): number => {
    const before = records.length;
    records = records.filter((record) => keep(record) || ((bytes -= record.json.length), false));
    return before - records.length;
  };
  return {
    async keep(list, entry) {
      let moved = 0;
      for (const { id, sequence } of list) {
        const record = take(id);
        if (!record) continue;
        records.push({
          uuid: record.uuid,
          json: record.json,
          sequence,
          epoch: entry.epoch,
          url: entry.url,
          archivedAt: entry.at,
        });
        bytes += record.json.length;
        moved++;
      }
      entries.push({ ...entry, ranges: entry.ranges.map(([a, b]) => [a, b] as const) });
      return moved;
    },
    async find({ url, epoch, ranges, limit }) {
      return records
        .filter((r) => r.url === url && r.epoch === epoch && inRanges(ranges, r.sequence))
        .sort((a, b) => a.sequence - b.sequence)
        .slice(0, limit)
        .map((r) => ({ ...r }));
    },
    async receipts() {
      return entries.map((e) => ({ ...e }));
    },
    async prune({ olderThan, maxBytes }) {
      let removed = drop((r) => r.archivedAt >= olderThan);
      while (bytes > maxBytes && records.length > 0) {
        bytes -= records.shift()!.json.length;
        removed++;
      }
      // A receipt goes with the last of its records (they share its time).
      const oldest = records[0]?.archivedAt ?? Infinity;
      entries = entries.filter((e) => e.at >= oldest);
      return removed;
    },
    async size() {
      return { records: records.length, bytes };
    },
  };
}
