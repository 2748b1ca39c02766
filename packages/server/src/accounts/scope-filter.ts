import type { AppContext } from '../context.js';
import { devicesOfGroups } from '../store/device-groups.js';
import type { DeviceRow } from '../store/devices.js';
import { listOrgs } from '../store/orgs.js';
import type { UserPrincipal } from './roles.js';
import { deviceVisible, isLimited } from './user-access.js';

/** Who is reading: the admin (everything) or a user (their orgs and groups). */
export type Reader = { kind: 'admin' } | UserPrincipal;

/** The devices of `rows` the reader may see: for a limited user, those of their orgs and groups. */
export async function devicesInScope(ctx: AppContext, reader: Reader, rows: DeviceRow[]): Promise<DeviceRow[]> {
  if (!isLimited(reader)) return rows;
  const orgs = reader.orgs ?? [];
  const allowed = new Set((await listOrgs(ctx.db)).filter((org) => orgs.includes(org.name)).map((o) => o.id));
  const grouped = await devicesOfGroups(ctx.db, reader.groups ?? []);
  return rows.filter((row) => (row.org_id !== null && allowed.has(Number(row.org_id))) || grouped.has(row.id));
}

/** Most devices whose visibility a live feed remembers. */
const MAX_REMEMBERED = 10_000;
/**
 * How long a feed trusts what it learnt of a device: a device's org never changes, but an owner
 * may take a device out of a group while a feed is open; after this long the feed asks again.
 */
const REMEMBER_MS = 5_000;

/**
 * Whether a live feed's reader may see a device's positions, learnt once per device and then
 * remembered for a few seconds (bounded), so the feed does not query the database per position.
 */
export function liveScopeOf(ctx: AppContext, reader: Reader): (deviceId: string) => Promise<boolean> {
  if (!isLimited(reader)) return async () => true;
  const known = new Map<string, { visible: boolean; at: number }>();
  return async (deviceId) => {
    const now = ctx.now();
    const seen = known.get(deviceId);
    if (seen && now - seen.at < REMEMBER_MS && now >= seen.at) return seen.visible;
    const visible = await deviceVisible(ctx.db, reader, deviceId);
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(deviceId, { visible, at: now });
    return visible;
  };
}

/** Whether the reader may see this device (a device in no org nor group is outside every limited user's scope). */
export async function deviceInScope(ctx: AppContext, reader: Reader, deviceId: string): Promise<boolean> {
  return reader.kind !== 'user' || deviceVisible(ctx.db, reader, deviceId);
}
