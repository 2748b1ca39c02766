import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Database } from '../db/database.js';

/** Every table holding a device's data, with its row key: a deleted device leaves none of it. */
const DEVICE_TABLES = [
  ['locations', 'id'],
  ['quarantine', 'id'],
  ['logs', 'id'],
  ['fleet_events', 'seq'],
  ['outbox', 'seq'],
  ['dropped_ranges', 'id'],
  ['expired_ranges', 'id'],
  ['commands', 'id'],
  ['shares', 'id'],
  ['refresh_tokens', 'token_hash'],
  ['device_keys', 'key_hash'],
  ['device_health', 'seq'],
  // After locations (whose deletes mark the pyramid stale), the pyramid's rows go too.
  ['track_tiles', 'id'],
  ['track_tile_dirty', 'id'],
  ['device_group_members', 'id'],
] as const;

/**
 * Removes all of a device's data (issue 33): its records, quarantine, logs, events, undelivered
 * outbox rows, ledger ranges, commands, share links and tokens, in bounded transactions (a device
 * of millions of records never holds one long write), then clears what its devices row said of it.
 * The row itself stays, marked deleted by the caller beforehand: the device's next upload gets 410
 * and its stop commands instead of registering afresh. Answers the rows removed.
 */
export async function purgeDeviceData(db: Database, deviceId: string, batchSize: number): Promise<number> {
  let removed = 0;
  for (const [table, key] of DEVICE_TABLES) {
    for (;;) {
      const count = await db.run(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE device_id = ? LIMIT ?)`,
        [deviceId, batchSize],
      );
      removed += count;
      if (count < batchSize) break;
      await yieldToIo();
    }
  }
  await db.run(
    `UPDATE devices SET model = NULL, info = '{}', name = NULL, records = 0, duplicates = 0, quarantined = 0,
       last_latitude = NULL, last_longitude = NULL, last_recorded_at = NULL,
       event_cursor = NULL, event_state = NULL, event_silent_since = NULL
     WHERE id = ?`,
    [deviceId],
  );
  return removed;
}
