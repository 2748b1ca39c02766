import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkMonitor, NetworkType } from '@waypost/sdk/internal';
import { createPollingNetworkMonitor } from './polling-monitor.js';

/** Preference when several links are up: the ones automatic uploads are allowed on first. */
const PREFERENCE: readonly NetworkType[] = ['ethernet', 'wifi', 'cellular'];

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The type of one interface from sysfs: wireless, wwan/ppp (cellular), anything else wired. */
export function interfaceType(root: string, name: string): NetworkType | null {
  if (name === 'lo') return null;
  const dir = join(root, name);
  const operstate = read(join(dir, 'operstate'));
  const up = operstate === 'up' || (operstate === 'unknown' && read(join(dir, 'carrier')) === '1');
  if (!up) return null;
  if (existsSync(join(dir, 'wireless')) || existsSync(join(dir, 'phy80211'))) return 'wifi';
  const devtype = read(join(dir, 'uevent'))?.match(/^DEVTYPE=(\w+)/m)?.[1];
  if (devtype === 'wwan' || /^(wwan|ppp|wwp|rmnet)/.test(name)) return 'cellular';
  if (devtype === 'wlan') return 'wifi';
  return 'ethernet';
}

/** The best link that is up, read from /sys/class/net (or `root`, for tests). */
export function readNetworkType(root = '/sys/class/net'): NetworkType {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return 'none';
  }
  const types = new Set<NetworkType | null>();
  let virtualUp = false;
  for (const name of names) {
    const type = interfaceType(root, name);
    // A wired-looking link without a `device` (a bridge, veth, tun/VPN) rides on another link: a
    // Docker bridge must not turn a cellular host into "ethernet". Alone (a container), it counts.
    if (type === 'ethernet' && !existsSync(join(root, name, 'device'))) virtualUp = true;
    else types.add(type);
  }
  return PREFERENCE.find((type) => types.has(type)) ?? (virtualUp ? 'ethernet' : 'none');
}

/**
 * Watches the host's interfaces by polling sysfs (no netlink socket needed, works unprivileged)
 * and reports each change of the best link's type.
 */
export function createLinuxNetworkMonitor(options: { root?: string; pollMs?: number } = {}): NetworkMonitor {
  const root = options.root ?? '/sys/class/net';
  return createPollingNetworkMonitor(() => readNetworkType(root), options);
}

/** Whether this host has the sysfs network tree the Linux monitor reads. */
export function hasSysfsNetwork(root = '/sys/class/net'): boolean {
  try {
    return readdirSync(root).length > 0;
  } catch {
    return false;
  }
}
