import type { LogEntry, LogStore } from '@waypost/sdk/internal';
import type { Durability } from './location-queue.js';
import type { Db, LogRow } from './schema.js';

const entry = (row: LogEntry): LogEntry => ({
  timestamp: row.timestamp,
  level: row.level,
  tag: row.tag,
  message: row.message,
});

/** A row's entries in insertion order: a batch (schema v3), or one entry written before. */
const entriesOf = (row: LogRow): readonly LogEntry[] => ('entries' in row ? row.entries : [row]);

const earliest = (entries: readonly LogEntry[]) => entries.reduce((min, e) => Math.min(min, e.timestamp), Infinity);

/**
 * The SDK log: entries in insertion order; `limit` keeps the newest N, as the SQLite store does.
 * Each append() is one row holding its entries (issue 43): the logger appends a batch of two lines
 * per recorded location, and a request per line cost about a fifth of the enqueue rate. A row's
 * `timestamp` (the index prune() reads) is its earliest entry's.
 */
export function createLogStore(db: Db, durability: Durability): LogStore {
  return {
    async append(entries) {
      if (entries.length === 0) return;
      const batch = entries.map(entry);
      const tx = db.transaction('log', 'readwrite', { durability });
      void tx.store.add({ timestamp: earliest(batch), entries: batch });
      await tx.done;
    },
    async read(query) {
      // Without `order`: the newest `limit` after skipping `offset` newest, oldest first (the
      // tail); with it, the anchor's meaning (ASC from the oldest, DESC from the newest).
      const start = query?.start ?? query?.since ?? -Infinity;
      const end = query?.end ?? Infinity;
      const offset = Math.max(0, query?.offset ?? 0);
      const limit = query?.limit === undefined || query.limit < 0 ? Infinity : query.limit;
      const taken: LogEntry[] = [];
      if (limit === 0) return taken;
      const ascending = query?.order === 'ASC';
      let skipped = 0;
      let cursor = await db.transaction('log').store.openCursor(null, ascending ? 'next' : 'prev');
      while (cursor && taken.length < limit) {
        const entries = entriesOf(cursor.value);
        for (const e of ascending ? entries : [...entries].reverse()) {
          if (taken.length >= limit) break;
          if (e.timestamp < start || e.timestamp > end) continue;
          if (skipped < offset) skipped++;
          else taken.push(entry(e));
        }
        cursor = await cursor.continue();
      }
      return query?.order === undefined ? taken.reverse() : taken;
    },
    async clear() {
      await db.clear('log');
    },
    async prune(olderThan) {
      const tx = db.transaction('log', 'readwrite', { durability });
      // The rows holding an entry older than that: dropped, or rewritten with the rest.
      const rows = await tx.store.index('timestamp').getAll(IDBKeyRange.upperBound(olderThan, true));
      let removed = 0;
      for (const row of rows) {
        const entries = entriesOf(row);
        const kept = entries.filter((e) => e.timestamp >= olderThan).map(entry);
        removed += entries.length - kept.length;
        if (kept.length === 0) void tx.store.delete(row.id!);
        else void tx.store.put({ id: row.id!, timestamp: earliest(kept), entries: kept });
      }
      await tx.done;
      return removed;
    },
  };
}
