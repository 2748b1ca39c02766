import type Database from 'better-sqlite3';
import type { ArchiveEntry, ArchivedRecord, ReceiptArchive } from '@waypost/sdk/internal';

interface ArchiveRow {
  uuid: string;
  json: string;
  sequence: number;
  epoch: string | null;
  url: string;
  archived_at: number;
}

interface ReceiptRow {
  url: string;
  epoch: string | null;
  ranges: string;
  receipt: string;
  at: number;
}

/**
 * The receipt archive (ports/archive.ts) in the store's SQLite file (schema v4): a receipted
 * record moves from `locations` to `archive` in one transaction with its receipt, so a crash keeps
 * it in one place or the other, never both or neither.
 */
export function openArchive(db: Database.Database): ReceiptArchive {
  const statements = {
    insertReceipt: db.prepare('INSERT INTO receipts (url, epoch, ranges, receipt, at) VALUES (?, ?, ?, ?, ?)'),
    moveRecord: db.prepare(
      'INSERT INTO archive (receipt_id, uuid, sequence, json, archived_at) SELECT ?, uuid, ?, json, ? FROM locations WHERE id = ? RETURNING length(json)',
    ),
    removeRecord: db.prepare('DELETE FROM locations WHERE id = ?'),
    unlock: db.prepare('DELETE FROM location_locks WHERE id = ?'),
    addBytes: db.prepare('UPDATE archive_bytes SET bytes = max(0, bytes + ?)'),
    bytes: db.prepare('SELECT bytes FROM archive_bytes').pluck(),
    count: db.prepare('SELECT count(*) FROM archive').pluck(),
    find: db.prepare(
      `SELECT a.uuid, a.json, a.sequence, r.epoch, r.url, a.archived_at FROM archive a JOIN receipts r ON r.id = a.receipt_id
       WHERE a.sequence BETWEEN ? AND ? AND r.url = ? AND r.epoch IS ? ORDER BY a.sequence LIMIT ?`,
    ),
    receipts: db.prepare('SELECT url, epoch, ranges, receipt, at FROM receipts ORDER BY id'),
    pruneOlder: db.prepare('DELETE FROM archive WHERE archived_at < ? RETURNING length(json)').pluck(),
    // A receipt goes with the last of its records (they share its time): those older than every
    // record still archived, or all when none is.
    pruneReceipts: db.prepare('DELETE FROM receipts WHERE at < coalesce((SELECT min(archived_at) FROM archive), ?)'),
    oldest: db.prepare('DELETE FROM archive WHERE id = (SELECT min(id) FROM archive) RETURNING length(json)').pluck(),
  };
  const keep = db.transaction((records: readonly { id: number; sequence: number }[], entry: ArchiveEntry) => {
    const receiptId = statements.insertReceipt.run(
      entry.url,
      entry.epoch,
      JSON.stringify(entry.ranges),
      entry.receipt,
      entry.at,
    ).lastInsertRowid;
    let moved = 0;
    let bytes = 0;
    for (const { id, sequence } of records) {
      const row = statements.moveRecord.get(receiptId, sequence, entry.at, id) as
        { 'length(json)': number } | undefined;
      if (!row) continue;
      statements.removeRecord.run(id);
      statements.unlock.run(id);
      bytes += row['length(json)'];
      moved++;
    }
    statements.addBytes.run(bytes);
    return moved;
  });
  const prune = db.transaction((olderThan: number, maxBytes: number) => {
    const older = statements.pruneOlder.all(olderThan) as number[];
    let freed = older.reduce((n, b) => n + b, 0);
    let removed = older.length;
    let held = (statements.bytes.get() as number) - freed;
    while (held > maxBytes) {
      const bytes = statements.oldest.get() as number | undefined;
      if (bytes === undefined) break;
      held -= bytes;
      freed += bytes;
      removed++;
    }
    // A prune that frees nothing (every upload's, mostly) writes no page: its commit costs no WAL frame.
    if (freed !== 0) statements.addBytes.run(-freed);
    statements.pruneReceipts.run(Number.MAX_SAFE_INTEGER);
    return removed;
  });
  return {
    keep: async (records, entry) => keep.immediate(records, entry),
    async find({ url, epoch, ranges, limit }) {
      const found: ArchivedRecord[] = [];
      for (const [from, to] of ranges) {
        if (found.length >= limit) break;
        const rows = statements.find.all(from, to, url, epoch, limit - found.length) as ArchiveRow[];
        for (const row of rows) {
          found.push({
            uuid: row.uuid,
            json: row.json,
            sequence: row.sequence,
            epoch: row.epoch,
            url: row.url,
            archivedAt: row.archived_at,
          });
        }
      }
      return found;
    },
    receipts: async () =>
      (statements.receipts.all() as ReceiptRow[]).map((row) => ({
        url: row.url,
        epoch: row.epoch,
        ranges: JSON.parse(row.ranges) as ArchiveEntry['ranges'],
        receipt: row.receipt,
        at: row.at,
      })),
    prune: async ({ olderThan, maxBytes }) => prune.immediate(olderThan, maxBytes),
    size: async () => ({ records: statements.count.get() as number, bytes: statements.bytes.get() as number }),
  };
}
