import { parseGeofence, type Geofence } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';

/**
 * Server-side geofences (issue 21), evaluated on ingest for every device. Each is evaluated on every
 * stored record: a bound keeps ingest's cost per record bounded too.
 */
export const MAX_GEOFENCES = 1000;

/**
 * A geofence from the admin API, in the SDK's shape (a circle, or a polygon by `vertices`, whose
 * centre and radius are computed); dwell is reported when a `loiteringDelay` is given, unless
 * notifyOnDwell says otherwise.
 */
export function parseServerGeofence(input: unknown): Geofence {
  const body = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {};
  const given = body as { loiteringDelay?: unknown; notifyOnDwell?: unknown; vertices?: unknown };
  // A polygon's circle is always the one around its corners (evaluation relies on it enclosing them).
  const polygon = given.vertices !== undefined ? { latitude: undefined, longitude: undefined, radius: undefined } : {};
  return parseGeofence({
    ...body,
    ...polygon,
    notifyOnDwell: given.notifyOnDwell ?? (given.loiteringDelay !== undefined && given.loiteringDelay !== 0),
  });
}

/** A geofence as the server keeps it: the SDK's shape, and the org it belongs to (absent: the fleet's). */
export type ServerGeofence = Geofence & { org?: string };

/** The SQL naming one org's rows (null: the fleet's), with its parameters. */
const ofOrg = (org: string | null): [string, string[]] => (org === null ? ['org IS NULL', []] : ['org = ?', [org]]);

/**
 * How many geofences a device would be evaluated against with this one added (not counting one
 * it replaces): the fleet's and its org's; for a fleet's geofence, the fleet's and the largest org's.
 */
async function evaluatedWith(db: Queryable, identifier: string, org: string | null): Promise<number> {
  const count = async (sql: string, params: string[]) =>
    Number((await db.query<{ n: number | null }>(sql, params))[0]?.n ?? 0);
  if (org !== null)
    return count(`SELECT COUNT(*) AS n FROM geofences WHERE (org IS NULL OR org = ?) AND identifier <> ?`, [
      org,
      identifier,
    ]);
  const fleet = await count(`SELECT COUNT(*) AS n FROM geofences WHERE org IS NULL AND identifier <> ?`, [identifier]);
  const largestOrg = await count(
    `SELECT MAX(n) AS n FROM (SELECT COUNT(*) AS n FROM geofences WHERE org IS NOT NULL GROUP BY org) AS per_org`,
    [],
  );
  return fleet + largestOrg;
}

/**
 * Adds or replaces a geofence (by identifier) of `org` (null: the whole fleet's, issue 33).
 * Identifiers are unique per org (issue 41): two orgs may each have a "depot", and neither learns
 * of the other's. A device is evaluated against the fleet's geofences and its org's, so a fleet's
 * identifier is unique among all and an org's is not one of the fleet's: `taken` then. `full`
 * when a device would be evaluated against more than MAX_GEOFENCES. Run in changeFleetConfig's
 * transaction (one change at a time); the unique index on (org, identifier) backs it.
 */
export async function saveGeofence(
  db: Queryable,
  geofence: Geofence,
  now: number,
  org: string | null = null,
): Promise<'saved' | 'full' | 'taken'> {
  const clash = await db.query(
    `SELECT 1 AS taken FROM geofences WHERE identifier = ? AND ${org === null ? 'org IS NOT NULL' : 'org IS NULL'}`,
    [geofence.identifier],
  );
  if (clash.length > 0) return 'taken';
  if ((await evaluatedWith(db, geofence.identifier, org)) >= MAX_GEOFENCES) return 'full';
  const [same, params] = ofOrg(org);
  const definition = JSON.stringify(geofence);
  const replaced = await db.run(`UPDATE geofences SET definition = ? WHERE identifier = ? AND ${same}`, [
    definition,
    geofence.identifier,
    ...params,
  ]);
  if (replaced === 0) {
    await db.run(`INSERT INTO geofences (identifier, definition, created_at, org) VALUES (?, ?, ?, ?)`, [
      geofence.identifier,
      definition,
      now,
      org,
    ]);
  }
  return 'saved';
}

/** Every geofence, each with its org when it is an org's, by identifier then org. */
export async function listGeofences(db: Queryable): Promise<ServerGeofence[]> {
  const rows = await db.query<{ definition: string; org: string | null }>(
    `SELECT definition, org FROM geofences ORDER BY identifier, org`,
  );
  return rows.map((row) => {
    const fence = JSON.parse(row.definition) as Geofence;
    return row.org === null ? fence : { ...fence, org: row.org };
  });
}

/** Deletes the geofence of this identifier of `org` (null: the fleet's); whether there was one. */
export async function deleteGeofence(db: Queryable, identifier: string, org: string | null): Promise<boolean> {
  const [same, params] = ofOrg(org);
  return (await db.run(`DELETE FROM geofences WHERE identifier = ? AND ${same}`, [identifier, ...params])) > 0;
}
