import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { NetworkMonitor, NetworkType } from '@waypost/sdk/internal';
import { createPollingNetworkMonitor } from './polling-monitor.js';

/** Preference when several links are up: the ones automatic uploads are allowed on first. */
const PREFERENCE: readonly NetworkType[] = ['ethernet', 'wifi', 'cellular'];

/** A link-local address (169.254/16, fe80::/10) is what an interface has before it is connected. */
function routable(address: NetworkInterfaceInfo): boolean {
  if (address.internal) return false;
  return address.family === 'IPv4' ? !address.address.startsWith('169.254.') : !/^fe[89ab]/i.test(address.address);
}

/**
 * The type an interface's name suggests: what Node can see on macOS (en0, pdp_ip0), Windows
 * ("Wi-Fi", "Ethernet", "Cellular") and in containers (eth0). Node does not say what a link is,
 * so a name that says nothing counts as wired.
 */
export function typeFromName(name: string): NetworkType {
  if (/wi-?fi|wlan|wireless|^wl/i.test(name)) return 'wifi';
  if (/cellular|mobile|wwan|^pdp_ip|^rmnet|^ppp/i.test(name)) return 'cellular';
  return 'ethernet';
}

/** The best link with a routable address, from os.networkInterfaces() (or `interfaces`, for tests). */
export function readInterfacesType(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): NetworkType {
  const types = new Set<NetworkType>();
  for (const [name, addresses] of Object.entries(interfaces)) {
    if (addresses?.some(routable)) types.add(typeFromName(name));
  }
  return PREFERENCE.find((type) => types.has(type)) ?? 'none';
}

/** The network monitor for hosts without Linux sysfs (macOS, Windows, BSDs, some sandboxes). */
export function createInterfacesNetworkMonitor(
  options: { pollMs?: number; read?: () => NodeJS.Dict<NetworkInterfaceInfo[]> } = {},
): NetworkMonitor {
  const read = options.read ?? networkInterfaces;
  return createPollingNetworkMonitor(() => readInterfacesType(read()), options);
}
