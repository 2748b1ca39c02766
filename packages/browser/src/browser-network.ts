import type { NetworkMonitor, NetworkType } from '@waypost/sdk/internal';

/** The parts of the Network Information API (Chromium, Android) this monitor reads. */
export interface NetworkInformationLike {
  readonly type?: string;
  addEventListener(type: 'change', listener: () => void): void;
  removeEventListener(type: 'change', listener: () => void): void;
}

/** What a window or a worker scope offers; injectable so the mapping is tested without a browser. */
export interface NetworkHost {
  navigator: { onLine: boolean; connection?: NetworkInformationLike };
  addEventListener(type: 'online' | 'offline', listener: () => void): void;
  removeEventListener(type: 'online' | 'offline', listener: () => void): void;
}

/**
 * The connection as the upload policy sees it. Offline is `none`. The Network Information API's
 * `type` says wifi, cellular or ethernet where the browser offers it (Chromium on Android); where
 * it does not (desktop browsers, `unknown`, `other`), an online browser counts as `wifi`, so that
 * `disableAutoSyncOnCellular` does not hold uploads back on a link nobody knows to be metered.
 */
export function networkTypeOf(onLine: boolean, connectionType: string | undefined): NetworkType {
  if (!onLine || connectionType === 'none') return 'none';
  if (connectionType === 'cellular') return 'cellular';
  if (connectionType === 'ethernet') return 'ethernet';
  return 'wifi';
}

/** The network port from navigator.onLine, the online/offline events and navigator.connection. */
export function createBrowserNetworkMonitor(host: NetworkHost = globalThis as unknown as NetworkHost): NetworkMonitor {
  const read = () => networkTypeOf(host.navigator.onLine, host.navigator.connection?.type);
  let last = read();
  const listeners = new Set<(type: NetworkType) => void>();
  const check = () => {
    const now = read();
    if (now === last) return;
    last = now;
    for (const listener of [...listeners]) listener(now);
  };
  host.addEventListener('online', check);
  host.addEventListener('offline', check);
  host.navigator.connection?.addEventListener('change', check);
  return {
    current: read,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      host.removeEventListener('online', check);
      host.removeEventListener('offline', check);
      host.navigator.connection?.removeEventListener('change', check);
    },
  };
}
