import type { NetworkMonitor } from '@waypost/sdk/internal';
import { createInterfacesNetworkMonitor } from './interfaces-network.js';
import { createLinuxNetworkMonitor, hasSysfsNetwork } from './linux-network.js';

/**
 * The host's network monitor: Linux sysfs where it exists (it tells Wi-Fi, cellular and wired
 * apart), os.networkInterfaces() everywhere else. Both take hints from uploads.
 */
export function createDefaultNetworkMonitor(
  options: { platform?: NodeJS.Platform; sysfsRoot?: string; pollMs?: number } = {},
): NetworkMonitor {
  const platform = options.platform ?? process.platform;
  const root = options.sysfsRoot ?? '/sys/class/net';
  if (platform === 'linux' && hasSysfsNetwork(root)) return createLinuxNetworkMonitor({ ...options, root });
  return createInterfacesNetworkMonitor(options);
}
