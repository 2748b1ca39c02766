import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Database } from '../db/database.js';
import { clearTombstone, DEVICE_TABLES } from './data-owners.js';

/**
 * Removes all of a device's data (issues 33, 41): every row of every table data-owners.ts names as
 * a device's (records, quarantine, logs, events, undelivered outbox rows, ledger ranges, commands,
 * share links, tokens, health history, track tiles, group memberships), in bounded transactions (a
 * device of millions of records never holds one long write), then clears its devices row of all
 * but what refuses its next request. The row itself stays, marked deleted by the caller beforehand:
 * the device's next upload gets 410 and its stop commands instead of registering afresh. Answers
 * the rows removed.
 */
export async function purgeDeviceData(db: Database, deviceId: string, batchSize: number): Promise<number> {
  let removed = 0;
  for (const { table, column, key } of DEVICE_TABLES) {
    for (;;) {
      const count = await db.run(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${column} = ? LIMIT ?)`,
        [deviceId, batchSize],
      );
      removed += count;
      if (count < batchSize) break;
      await yieldToIo();
    }
  }
  const tombstone = clearTombstone('devices');
  await db.run(tombstone.sql, [...tombstone.params, deviceId]);
  return removed;
}
