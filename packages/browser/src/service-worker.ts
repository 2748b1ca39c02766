import { createBrowserNetworkMonitor } from './browser-network.js';
import { createBackgroundGeolocation, DEFAULT_DATABASE } from './create.js';
import { uploadLockName, webLocks } from './upload-leadership.js';

/** The Background Sync tag (and periodic sync tag) under which the queue is drained. */
export const SYNC_TAG = 'waypost-upload';
/** Periodic Background Sync interval asked for where the browser offers it (it may stretch it). */
export const PERIODIC_SYNC_MIN_INTERVAL_MS = 15 * 60 * 1000;

export interface DrainResult {
  /** False when a tab leads uploads: that tab drains, the worker left the queue alone. */
  ran: boolean;
  delivered: number;
  remaining: number;
}

export interface DrainOptions {
  database?: string;
  /**
   * How long a wake-up waits for the worker to see the network (default 30 s). The browser fires a
   * sync once it is online, but a worker's navigator.onLine can learn it moments later; drained at
   * once, the wake-up would upload nothing and the browser would count the sync done.
   */
  networkWaitMs?: number;
  /**
   * How long a wake-up waits for the upload lock (default 5 s): a tab closing as the sync fires
   * still holds it for a moment. A tab that stays open keeps leading and drains itself.
   */
  lockWaitMs?: number;
}

const NETWORK_WAIT_MS = 30_000;
const LOCK_WAIT_MS = 5_000;

/** Resolves true once the scope is online, false if it is still offline after `ms`. */
function onlineWithin(ms: number): Promise<boolean> {
  const network = createBrowserNetworkMonitor();
  if (network.current() !== 'none') {
    network.close?.();
    return Promise.resolve(true);
  }
  return new Promise<boolean>((resolve) => {
    const done = (online: boolean) => {
      clearTimeout(timer);
      network.close?.();
      resolve(online);
    };
    const timer = setTimeout(() => done(false), ms);
    network.subscribe((type) => type !== 'none' && done(true));
  });
}

/**
 * Drains the shared queue once from a service worker, with the configuration the page saved. A
 * wake-up is an automatic upload, not sync(): it keeps the spec's rules as the page would (nothing
 * with autoSync false, only on Wi-Fi with disableAutoSyncOnCellular, nothing before a server's
 * Retry-After, which the page's instance saved). The upload lock is taken once free (a tab closing
 * lets go of it a moment later); a tab that is still open keeps leading. Rejects when records
 * remain after a failed upload or with no network to send them on, so that the browser schedules
 * the sync again; records that the rules hold back are not a failure.
 */
export async function drainQueue(options: DrainOptions = {}): Promise<DrainResult> {
  const database = options.database ?? DEFAULT_DATABASE;
  const run = async (): Promise<DrainResult> => {
    const online = await onlineWithin(options.networkWaitMs ?? NETWORK_WAIT_MS);
    const bg = await createBackgroundGeolocation({ database, leadership: false, provider: null });
    try {
      let delivered = 0;
      let failed = !online;
      bg.onHttp((event) => {
        if (event.success) delivered += event.uuids.length;
        else failed = true;
      });
      // The page's saved configuration, applied as it is; ready() is the wake-up's trigger.
      await bg.ready({ reset: false });
      await bg.idle();
      const remaining = await bg.getCount();
      if (remaining > 0 && (failed || !(await onlineWithin(0)))) {
        throw new Error(`${remaining} records still queued after a failed upload or offline; the browser will retry`);
      }
      return { ran: true, delivered, remaining };
    } finally {
      await bg.close();
    }
  };
  const locks = webLocks();
  if (!locks) return run();
  let granted = false;
  const signal = AbortSignal.timeout(options.lockWaitMs ?? LOCK_WAIT_MS);
  try {
    return (await locks.request(uploadLockName(database), { signal }, () => {
      granted = true;
      return run();
    })) as DrainResult;
  } catch (error) {
    if (!granted && signal.aborted) return { ran: false, delivered: 0, remaining: -1 }; // a tab leads: it drains
    throw error;
  }
}

interface ExtendableEventLike extends Event {
  readonly tag: string;
  waitUntil(promise: Promise<unknown>): void;
}

/** In a service worker: drain the queue on Background Sync and Periodic Background Sync. */
export function installServiceWorkerUploads(
  scope: { addEventListener(type: string, listener: (event: Event) => void): void },
  options: { database?: string } = {},
): void {
  const onSync = (event: Event) => {
    const sync = event as ExtendableEventLike;
    if (sync.tag === SYNC_TAG) sync.waitUntil(drainQueue(options));
  };
  scope.addEventListener('sync', onSync);
  scope.addEventListener('periodicsync', onSync);
}

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
  periodicSync?: { register(tag: string, options: { minInterval: number }): Promise<void> };
}

/**
 * From a page: asks the browser to wake the service worker for uploads once it is online (Background
 * Sync) and now and then (Periodic Background Sync, where offered). Safe to call often; returns
 * which of the two the browser accepted.
 */
export async function registerBackgroundUploads(
  registration: ServiceWorkerRegistration,
): Promise<{ sync: boolean; periodic: boolean }> {
  const r = registration as unknown as SyncRegistration;
  const attempt = async (fn: (() => Promise<void>) | undefined) => {
    if (!fn) return false;
    try {
      await fn();
      return true;
    } catch {
      return false; // permission not granted, or not an installed app
    }
  };
  return {
    sync: await attempt(r.sync && (() => r.sync!.register(SYNC_TAG))),
    periodic: await attempt(
      r.periodicSync && (() => r.periodicSync!.register(SYNC_TAG, { minInterval: PERIODIC_SYNC_MIN_INTERVAL_MS })),
    ),
  };
}
