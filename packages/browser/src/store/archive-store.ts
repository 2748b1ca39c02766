import { unwrap } from 'idb';
import type { ArchiveEntry, ArchivedRecord, ReceiptArchive } from '@waypost/sdk/internal';
import type { Durability } from './location-queue.js';
import { normalize, without } from './lock-ranges.js';
import { keepCounter } from './numbering.js';
import type { Db } from './schema.js';

/** The kv key of the archive's running byte total (so the byte cap never sums the store). */
const BYTES_KEY = 'archive.bytes';

/**
 * The receipt archive (ports/archive.ts) on IndexedDB (schema v2): a receipted record moves from
 * `locations` to `archive` in one transaction with its receipt and the byte total, so a crashed tab
 * keeps it in one place or the other, never both or neither.
 */
export function createArchive(db: Db, durability: Durability): ReceiptArchive {
  return {
    async keep(records, entry) {
      const tx = db.transaction(['locations', 'locks', 'archive', 'receipts', 'kv'], 'readwrite', { durability });
      // The moved records' numbers stay counted once they leave `locations` (numbering.ts).
      await keepCounter(unwrap(tx));
      const receiptId = await tx.objectStore('receipts').add({
        url: entry.url,
        epoch: entry.epoch,
        ranges: entry.ranges.map(([a, b]) => [a, b] as [number, number]),
        receipt: entry.receipt,
        at: entry.at,
      });
      let moved = 0;
      let bytes = 0;
      const movedIds: number[] = [];
      for (const { id, sequence } of records) {
        const row = await tx.objectStore('locations').get(id);
        if (!row) continue;
        await tx.objectStore('archive').add({
          receiptId,
          uuid: row.uuid,
          json: row.json,
          sequence,
          archivedAt: entry.at,
          stream: [entry.url, entry.epoch ?? '', sequence],
        });
        await tx.objectStore('locations').delete(id);
        movedIds.push(id);
        bytes += row.json.length;
        moved++;
      }
      // Their locks go with them (ids are never reused, but a lock over nothing is noise).
      const locks = tx.objectStore('locks');
      const ranges = without(normalize(await locks.getAll()), movedIds);
      await locks.clear();
      for (const r of ranges) await locks.put({ from: r.from, to: r.to }, r.from);
      const kv = tx.objectStore('kv');
      await kv.put(String(Number((await kv.get(BYTES_KEY)) ?? 0) + bytes), BYTES_KEY);
      await tx.done;
      return moved;
    },
    async find({ url, epoch, ranges, limit }) {
      const found: ArchivedRecord[] = [];
      const index = db.transaction('archive').store.index('stream');
      for (const [from, to] of ranges) {
        if (found.length >= limit) break;
        const key = IDBKeyRange.bound([url, epoch ?? '', from], [url, epoch ?? '', to]);
        for (const row of await index.getAll(key, limit - found.length)) {
          found.push({
            uuid: row.uuid,
            json: row.json,
            sequence: row.sequence,
            epoch,
            url,
            archivedAt: row.archivedAt,
          });
        }
      }
      return found;
    },
    async receipts() {
      const rows = await db.getAll('receipts');
      return rows.map(({ url, epoch, ranges, receipt, at }): ArchiveEntry => ({ url, epoch, ranges, receipt, at }));
    },
    async prune({ olderThan, maxBytes }) {
      const tx = db.transaction(['archive', 'receipts', 'kv'], 'readwrite', { durability });
      const kv = tx.objectStore('kv');
      let held = Number((await kv.get(BYTES_KEY)) ?? 0);
      let removed = 0;
      // Oldest first (ids ascend with time): older than the window, then beyond the byte cap.
      let cursor = await tx.objectStore('archive').openCursor();
      while (cursor && (cursor.value.archivedAt < olderThan || held > maxBytes)) {
        held -= cursor.value.json.length;
        removed++;
        await cursor.delete();
        cursor = await cursor.continue();
      }
      // A receipt goes with the last of its records (they share its time).
      const oldest = cursor?.value.archivedAt ?? Infinity;
      let receipt = await tx.objectStore('receipts').index('at').openCursor(IDBKeyRange.upperBound(oldest, true));
      while (receipt) {
        await receipt.delete();
        receipt = await receipt.continue();
      }
      await kv.put(String(Math.max(0, held)), BYTES_KEY);
      await tx.done;
      return removed;
    },
    async size() {
      const tx = db.transaction(['archive', 'kv']);
      return {
        records: await tx.objectStore('archive').count(),
        bytes: Number((await tx.objectStore('kv').get(BYTES_KEY)) ?? 0),
      };
    },
  };
}
