import type { AppContext } from '../context.js';
import type { DeviceRow } from '../store/devices.js';
import { listOrgs, orgOfDevice } from '../store/orgs.js';
import type { UserPrincipal } from './roles.js';
import { inScope } from './user-access.js';

/** Who is reading: the admin (everything) or a user (their orgs). */
export type Reader = { kind: 'admin' } | UserPrincipal;

const limited = (reader: Reader): reader is UserPrincipal & { orgs: string[] } =>
  reader.kind === 'user' && reader.orgs !== null;

/** The devices of `rows` the reader may see: for a user limited to orgs, only those in their orgs. */
export async function devicesInScope(ctx: AppContext, reader: Reader, rows: DeviceRow[]): Promise<DeviceRow[]> {
  if (!limited(reader)) return rows;
  const allowed = new Set((await listOrgs(ctx.db)).filter((org) => reader.orgs.includes(org.name)).map((o) => o.id));
  return rows.filter((row) => row.org_id !== null && allowed.has(Number(row.org_id)));
}

/** Most devices whose org a live feed remembers (a device's org is set at its registration). */
const MAX_REMEMBERED = 10_000;

/**
 * Whether a live feed's reader may see a device's positions, the device's org read once and then
 * remembered for this feed (bounded), so the feed does not query the database per position.
 */
export function liveScopeOf(ctx: AppContext, reader: Reader): (deviceId: string) => Promise<boolean> {
  if (!limited(reader)) return async () => true;
  const orgs = new Map<string, string | null>();
  return async (deviceId) => {
    let org = orgs.get(deviceId);
    if (org === undefined) {
      org = await orgOfDevice(ctx.db, deviceId);
      if (orgs.size >= MAX_REMEMBERED) orgs.clear();
      orgs.set(deviceId, org);
    }
    return inScope(reader, org);
  };
}

/** Whether the reader may see this device (a device in no org is outside every limited user's orgs). */
export async function deviceInScope(ctx: AppContext, reader: Reader, deviceId: string): Promise<boolean> {
  return !limited(reader) || inScope(reader, await orgOfDevice(ctx.db, deviceId));
}
