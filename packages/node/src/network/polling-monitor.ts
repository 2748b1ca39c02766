import type { NetworkMonitor, NetworkType } from '@waypost/sdk/internal';

export const NETWORK_POLL_MS = 5_000;

/**
 * A network monitor that polls `read` and reports each change. Uploads feed it hints: a response
 * while `read` says `none` means the detection cannot see the link this host uses (a VPN, an
 * unusual driver, a sandbox), so the monitor reports `ethernet` (connected, type unknown) until
 * a request fails; a failed request makes it look again at once. It is never stuck at `none`
 * while uploads succeed.
 */
export function createPollingNetworkMonitor(
  read: () => NetworkType,
  options: { pollMs?: number } = {},
): NetworkMonitor {
  let seen = read();
  let reachable = false;
  const listeners = new Set<(type: NetworkType) => void>();
  const effective = () => (seen === 'none' && reachable ? 'ethernet' : seen);
  let reported = effective();
  const update = () => {
    const next = effective();
    if (next === reported) return;
    reported = next;
    for (const listener of [...listeners]) listener(next);
  };
  const timer = setInterval(() => {
    seen = read();
    update();
  }, options.pollMs ?? NETWORK_POLL_MS);
  // Watching the network must not keep a process alive on its own.
  timer.unref();
  return {
    current: () => reported,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    hint(observation) {
      reachable = observation === 'reachable';
      if (!reachable) seen = read();
      update();
    },
    close: () => clearInterval(timer),
  };
}
