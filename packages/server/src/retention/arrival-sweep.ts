import type { Queryable } from '../db/database.js';
import { marksInStatements } from '../track-tiles/schema.js';
import { cutoffOf } from './cutoff.js';
import type { RetentionOptions } from './retention-options.js';
import { bookExpired, orgDaysOf, type ExpiredRow } from './retention-store.js';

/**
 * Locations in arrival order (their id): the order they sit in the table's pages. A fleet's
 * records arrive interleaved, so one device's rows lie one or two to a page; deleting device by
 * device rewrote each page once per device on it (on SQLite, every page a transaction changes goes
 * whole to the write-ahead log). Taking the oldest arrivals first deletes a page's rows together.
 */
export interface ArrivalWindow {
  /** The rows past their device's cutoff, by id. */
  expired: number[];
  /** How many rows the window read. */
  read: number;
  /** The last id read: the next window starts after it. */
  last: number;
}

/**
 * The next `size` locations after id `after`, with each one's organization period, and which of
 * them are past their cutoff. A window of rows is read in the table's own order (no sort).
 */
export async function arrivalWindow(
  db: Queryable,
  after: number,
  size: number,
  options: Pick<RetentionOptions, 'days'>,
  now: number,
): Promise<ArrivalWindow> {
  const rows = await db.query<{ id: number; recorded_at: number; retention_days: number | null }>(
    // The window first (a range of the table's key), then each row's device: never the other way.
    `SELECT w.id, w.recorded_at, o.retention_days
     FROM (SELECT id, device_id, recorded_at FROM locations WHERE id > ? ORDER BY id LIMIT ?) w
     JOIN devices d ON d.id = w.device_id LEFT JOIN orgs o ON o.id = d.org_id
     ORDER BY w.id`,
    [after, size],
  );
  const expired: number[] = [];
  for (const row of rows) {
    const cutoff = cutoffOf('locations', orgDaysOf(row.retention_days), options, now);
    if (cutoff !== null && Number(row.recorded_at) < cutoff) expired.push(Number(row.id));
  }
  return { expired, read: rows.length, last: rows.length > 0 ? Number(rows.at(-1)!.id) : after };
}

const IDS_PER_STATEMENT = 1000;

/**
 * Removes the listed locations (those still there) and books them as a device's range delete does
 * (retention-store.ts bookExpired), in the same transaction. Answers how many rows went.
 */
export async function expireArrivals(tx: Queryable, ids: readonly number[], now: number): Promise<number> {
  const rows: ExpiredRow[] = [];
  // A statement's parameters are bounded (SQLite: 32,766): a large retentionBatchSize takes several.
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const part = ids.slice(i, i + IDS_PER_STATEMENT);
    rows.push(
      ...(await tx.query<ExpiredRow>(
        `DELETE FROM locations WHERE id IN (${part.map(() => '?').join(', ')})
         RETURNING device_id, sequence, sequence_epoch, recorded_at, latitude`,
        part,
      )),
    );
  }
  await bookExpired(tx, rows, marksInStatements(tx), now);
  return rows.length;
}

/**
 * Whether a window is worth sweeping on from: at least half of it was past its cutoff. Below, the
 * oldest arrivals left are kept rows (an organization with a longer period, or the present), and
 * reading on would read kept rows for little: the per-device range deletes take the rest.
 */
export const sweepGoesOn = (window: ArrivalWindow, size: number): boolean =>
  window.read === size && window.expired.length * 2 >= size;
