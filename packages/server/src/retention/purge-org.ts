import type { AppContext } from '../context.js';
import { changeFleetConfig } from '../fleet/config-version.js';
import { revokeDeviceTokens } from '../store/refresh-tokens.js';
import { setOrgStatus, type OrgRow } from '../store/orgs.js';
import { clearTombstone, ORG_TABLES } from './data-owners.js';
import { purgeDeviceData } from './purge-device.js';

/**
 * Deletes an organization (issues 33, 41): marks it deleted (registrations through it get 410),
 * then each of its devices is marked deleted (its next upload gets 410) before its data goes, then
 * the org's own settings (every table data-owners.ts names as an org's: geofences, sinks with their
 * undelivered events) in one change of the fleet configuration, and its row is cleared of all but
 * its name and status. Answers how many devices were deleted.
 */
export async function deleteOrgData(ctx: AppContext, org: OrgRow): Promise<number> {
  await setOrgStatus(ctx.db, org.name, 'deleted');
  const devices = await ctx.db.query<{ id: string }>(`SELECT id FROM devices WHERE org_id = ?`, [org.id]);
  for (const { id } of devices) {
    await ctx.db.transaction(async (tx) => {
      await tx.run(`UPDATE devices SET status = 'deleted' WHERE id = ?`, [id]);
      await revokeDeviceTokens(tx, id, ctx.now());
    });
    await purgeDeviceData(ctx.db, id, ctx.options.retention.batchSize);
  }
  await changeFleetConfig(ctx.db, async (tx) => {
    // A sink's queued events go with it (as DELETE /api/sinks/:id does).
    await tx.run(`DELETE FROM outbox WHERE sink_id IN (SELECT id FROM sinks WHERE org = ?)`, [org.name]);
    for (const { table, column } of ORG_TABLES) await tx.run(`DELETE FROM ${table} WHERE ${column} = ?`, [org.name]);
    const tombstone = clearTombstone('orgs');
    await tx.run(tombstone.sql, [...tombstone.params, org.id]);
  });
  await ctx.fleet.configChanged();
  return devices.length;
}
