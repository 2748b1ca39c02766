import type { Queryable } from '../db/database.js';
import { deriveUuid } from '../ingest/derive-uuid.js';
import type { TrackerGroup } from './osmand.js';
import { isObject, type JsonObject } from './record-parts.js';

/**
 * How long after a stored request without `timestamp` the same request (same device, same
 * parameters) is taken as its retry rather than a new report, inclusive (docs/trackers.md).
 */
export const OSMAND_RETRY_WINDOW_MS = 60_000;

/** Whether OsmAnd parameters carry no time of their own. */
export const isUntimed = (params: JsonObject): boolean => {
  const time = Array.isArray(params.timestamp) ? params.timestamp.at(-1) : params.timestamp;
  return time === undefined || time === '';
};

const windowUuid = (deviceId: string, params: JsonObject, window: number): string =>
  deriveUuid('osmand-untimed', deviceId, params, window);

/**
 * The identities of the requests without a timestamp (a tracker that sends none, or leaves the
 * placeholder out): each is a point at its arrival, so a stationary tracker repeating the same
 * query every few minutes keeps a point per report; the same query again within
 * OSMAND_RETRY_WINDOW_MS of a stored one is that one's retry, stored once. The identity is the
 * parameters and the window of OSMAND_RETRY_WINDOW_MS the request arrived in; a retry in the next
 * window finds the one of the window before, stored less than OSMAND_RETRY_WINDOW_MS ago.
 * Answers a uuid per parameter object (the items of `groups`), for the translator to use.
 */
export async function untimedIdentities(
  db: Queryable,
  groups: readonly { deviceId: string | null; group: TrackerGroup }[],
  receivedAt: number,
): Promise<Map<unknown, string>> {
  const identities = new Map<unknown, string>();
  const window = Math.floor(receivedAt / OSMAND_RETRY_WINDOW_MS);
  for (const { deviceId, group } of groups) {
    if (deviceId === null || !group.translator) continue;
    for (const { value } of group.found) {
      if (!isObject(value) || !isUntimed(value)) continue;
      const current = windowUuid(deviceId, value, window);
      const previous = windowUuid(deviceId, value, window - 1);
      const stored = await db.query<{ uuid: string; received_at: number }>(
        `SELECT uuid, received_at FROM locations WHERE device_id = ? AND uuid IN (?, ?)`,
        [deviceId, current, previous],
      );
      const retried = stored.find((row) => Number(row.received_at) >= receivedAt - OSMAND_RETRY_WINDOW_MS);
      identities.set(value, retried?.uuid ?? current);
    }
  }
  return identities;
}
