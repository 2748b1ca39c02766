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

/**
 * Adds or replaces a geofence (by identifier) of `org` (null: the whole fleet's, issue 33):
 * `full` when the bound is reached, `taken` when the identifier is another org's (or the fleet's)
 * geofence, which a caller of one org never replaces.
 */
export async function saveGeofence(
  db: Queryable,
  geofence: Geofence,
  now: number,
  org: string | null = null,
): Promise<'saved' | 'full' | 'taken'> {
  const [existing] = await db.query<{ org: string | null }>(`SELECT org FROM geofences WHERE identifier = ?`, [
    geofence.identifier,
  ]);
  if (existing && (existing.org ?? null) !== org) return 'taken';
  const count = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM geofences WHERE identifier <> ?`, [
    geofence.identifier,
  ]);
  if (Number(count[0]?.n ?? 0) >= MAX_GEOFENCES) return 'full';
  await db.run(
    `INSERT INTO geofences (identifier, definition, created_at, org) VALUES (?, ?, ?, ?)
     ON CONFLICT (identifier) DO UPDATE SET definition = excluded.definition`,
    [geofence.identifier, JSON.stringify(geofence), now, org],
  );
  return 'saved';
}

/** The org of each org's geofence, by identifier (the fleet's geofences are not in it). */
export async function geofenceOrgs(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.query<{ identifier: string; org: string }>(
    `SELECT identifier, org FROM geofences WHERE org IS NOT NULL`,
  );
  return new Map(rows.map((row) => [row.identifier, row.org]));
}

export async function listGeofences(db: Queryable): Promise<Geofence[]> {
  const rows = await db.query<{ definition: string }>(`SELECT definition FROM geofences ORDER BY identifier`);
  return rows.map((row) => JSON.parse(row.definition) as Geofence);
}

export async function deleteGeofence(db: Queryable, identifier: string): Promise<boolean> {
  return (await db.run(`DELETE FROM geofences WHERE identifier = ?`, [identifier])) > 0;
}
