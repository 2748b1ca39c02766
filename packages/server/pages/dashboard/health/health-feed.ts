// The state the server names for each device (GET /api/health, docs/device-health.md): the one
// source of the state the device list, the device panel and the map's markers show. Read at load
// and again every half minute, so a device the server names quiet (or back) is shown so.
import { apiJson } from '../base/api.js';
import type { DeviceInfo } from '../device-info.js';
import type { Health } from '../replies.js';

const HEALTH_REFRESH_MS = 30_000;

/** Each device's named state by id; empty when the page may not ask (a role without the right). */
export async function fleetHealth(): Promise<Map<string | undefined, Health>> {
  const answer = (await apiJson('/api/health').catch(() => ({ devices: [] }))) as { devices?: Health[] };
  return new Map((answer.devices || []).map((named) => [named.id, named]));
}

let refreshing: ReturnType<typeof setInterval> | null = null;

/** Calls apply(states) with the server's states every half minute (once per page). */
export function keepHealthFresh(
  apply: (states: Map<string | undefined, Health>) => void,
  report: (error: unknown) => void,
): void {
  if (refreshing) clearInterval(refreshing);
  refreshing = setInterval(() => fleetHealth().then(apply, report), HEALTH_REFRESH_MS);
}

/**
 * The server's states again: each device whose state changed is given it (ensure(info) redraws its
 * row) and its marker redrawn. devices: the page's Map of { info, layer }.
 */
export function applyHealth(
  states: Map<string | undefined, Health>,
  devices: Map<string, { info: DeviceInfo; layer?: { refresh(now: number): void } | null }>,
  ensure: (info: DeviceInfo) => void,
): void {
  for (const device of devices.values()) {
    const health = states.get(device.info.id) ?? null;
    if (JSON.stringify(health) === JSON.stringify(device.info.health ?? null)) continue;
    ensure({ ...device.info, health });
    if (device.layer) device.layer.refresh(Date.now());
  }
}
