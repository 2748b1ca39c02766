import type { AppContext } from '../context.js';
import { findOrCreateOrgDevice, type DeviceInfo } from '../store/org-devices.js';
import { findOrCreateOrg } from '../store/orgs.js';
import { badRequest } from '../errors.js';
import type { JsonObject } from './extract.js';
import { checkDeviceId, INPUT_LIMITS } from './validation.js';

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The org a body names, where the anchor's clients put it: company_token, org, or inside device. */
export function orgIn(params: JsonObject | null): string | null {
  if (!params) return null;
  const device = isObject(params.device) ? params.device : {};
  return text(params.company_token) ?? text(params.org) ?? text(device.company_token) ?? text(device.org);
}

/** What a body or a registration says about its device: model and the anchor's device fields. */
export function deviceInfoIn(params: JsonObject, uuid: string): DeviceInfo {
  const device = isObject(params.device) ? params.device : {};
  const field = (name: string) => text(params[name]) ?? text(device[name]);
  const info: JsonObject = {};
  for (const name of ['manufacturer', 'framework', 'platform', 'version']) {
    const value = field(name);
    if (value !== null) info[name] = value;
  }
  return { uuid, model: field('model') ?? text(device.device_model), info };
}

/** A device named by its uuid inside an org. */
export interface OrgDeviceName {
  org: string;
  device: DeviceInfo;
}

/** An org's name is an id: a string of at most the id length. */
export function checkOrgName(org: string): string {
  if (org.length > INPUT_LIMITS.maxIdLength) {
    throw badRequest(
      'INVALID_ORG',
      `The org is ${org.length} characters long; at most ${INPUT_LIMITS.maxIdLength} are accepted`,
    );
  }
  return org;
}

export const orgDeviceKey = (org: string, uuid: string): string => `${org}\u0000${uuid}`;

/**
 * The server's device ids of devices named (without a token) inside an org, creating the org and
 * the device on first sight as the anchor does. Keys are orgDeviceKey(org, uuid).
 */
export async function resolveOrgDevices(ctx: AppContext, names: OrgDeviceName[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (names.length === 0) return ids;
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    for (const { org, device } of names) {
      checkOrgName(org);
      checkDeviceId(device.uuid, 'The device uuid');
      const key = orgDeviceKey(org, device.uuid);
      if (ids.has(key)) continue;
      const row = await findOrCreateOrg(tx, org, now);
      ids.set(key, await findOrCreateOrgDevice(tx, row.id, device, now));
    }
  });
  return ids;
}
