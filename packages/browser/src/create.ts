import {
  BackgroundGeolocation,
  checkOptions,
  type CommonCreateOptions,
  persistentDeviceUuid,
  OPEN_GATE,
  PORT_RULES,
  type OptionRules,
  type DeviceInfo,
  type LocationProvider,
  type NetworkMonitor,
  type Store,
  type UploadGate,
} from '@waypost/sdk/internal';
import { createBrowserNetworkMonitor } from './browser-network.js';
import { createFetchTransport } from './fetch-transport.js';
import { createGeolocationProvider } from './geolocation-provider.js';
import { createTabChannel, type TabChannel } from './tab-channel.js';
import { openIndexedDbStore } from './store/indexeddb-store.js';
import type { Durability } from './store/location-queue.js';
import { requestUploadLeadership, type UploadLeadership } from './upload-leadership.js';
import { pageAppState } from './page-app-state.js';

export interface CreateOptions extends CommonCreateOptions {
  /** Name of the IndexedDB database holding the queue, log, configuration and geofences. */
  database?: string;
  /** Default: navigator.onLine, online/offline events and the Network Information API. */
  network?: NetworkMonitor;
  /** relaxed (default) survives a crashed tab or browser; strict also survives power loss. */
  durability?: Durability;
  /** Records while tracking is started. Default: the Geolocation API where the page has one (not in workers); null for none. */
  provider?: LocationProvider | null;
  /**
   * Serves getCurrentPosition() and watchPosition(), as in @waypost/node. Default: its own
   * Geolocation API watch (separate from the tracking provider's, so a position request never
   * stops tracking); null for none: they then reject with NO_LOCATION_PROVIDER.
   */
  locationProvider?: LocationProvider | null;
  /**
   * Default true: tabs of the origin elect one uploader with the Web Locks API. False only where
   * the caller already holds the upload lock (the service worker's drain does).
   */
  leadership?: boolean;
}

export const DEFAULT_DATABASE = 'waypost';

/** What each option may be: checked before anything is opened (INVALID_OPTION naming it). */
const OPTION_RULES = {
  ...PORT_RULES,
  database: { kind: 'string', nonEmpty: true },
  durability: { kind: 'oneOf', values: ['relaxed', 'strict'] },
  provider: { kind: 'port', methods: ['start', 'stop'], orNull: true },
  locationProvider: { kind: 'port', methods: ['start', 'stop'], orNull: true },
  leadership: { kind: 'boolean' },
} as const satisfies OptionRules & Record<keyof CreateOptions, unknown>;
/**
 * Log lines are written this long after the first of a batch: every IndexedDB transaction costs
 * about as much as a record's insert, so one per record would halve the enqueue rate. Records are
 * never deferred; log lines still pending when the page is hidden are written then (pagehide).
 */
export const LOG_FLUSH_DELAY_MS = 250;

/** The device's identity: a uuid made once and kept in the database, and what the browser says. */
async function deviceInfo(store: Store, given: Partial<DeviceInfo> = {}): Promise<DeviceInfo> {
  const uuid = await persistentDeviceUuid(store, given.uuid);
  const nav = globalThis.navigator as { userAgent?: string; userAgentData?: { platform?: string } } | undefined;
  return {
    uuid,
    model: given.model ?? nav?.userAgentData?.platform ?? 'browser',
    manufacturer: given.manufacturer ?? 'unknown',
    platform: given.platform ?? 'browser',
    version: given.version ?? (nav?.userAgent ?? 'unknown').slice(0, 200),
  };
}

const hasGeolocation = () => (globalThis.navigator as { geolocation?: unknown } | undefined)?.geolocation !== undefined;

/** The core's getCurrentPosition()/watchPosition() source: the caller's, or a watch of its own. */
function positionsFrom(given: LocationProvider | null | undefined): { locationProvider?: LocationProvider } {
  const locationProvider = given === undefined ? (hasGeolocation() ? createGeolocationProvider() : null) : given;
  return locationProvider ? { locationProvider } : {};
}

/**
 * Opens Waypost in a page or worker: the IndexedDB queue shared by every tab of the origin, fetch,
 * the browser's network state, and the Geolocation API while tracking is started. Queue reads work
 * at once; call ready(config) before start().
 */
export async function createBackgroundGeolocation(options: CreateOptions = {}): Promise<BackgroundGeolocation> {
  checkOptions(options, OPTION_RULES, 'createBackgroundGeolocation');
  const database = options.database ?? DEFAULT_DATABASE;
  const store = options.store ?? (await openIndexedDbStore(database, { durability: options.durability ?? 'relaxed' }));
  const ownNetwork = options.network === undefined;
  const network = options.network ?? createBrowserNetworkMonitor();
  // Tabs of the origin share the queue; one leads the uploads. A new leader first frees the
  // record locks of a leader that died mid-upload, then the engine sees its gate open.
  const tabs = (options.leadership ?? true) ? createTabChannel(database) : null;
  const leadership = tabs
    ? requestUploadLeadership(database, async () => void (await store.locations.unlockAll()))
    : null;
  if (tabs && leadership) tabs.leads = () => leadership.isLeader;
  const uploadGate = tabs && leadership ? tabGate(tabs, leadership) : OPEN_GATE;
  const appState = pageAppState();
  let flushLog = () => {};
  // Windows have pagehide; in a worker the listener is simply never called.
  const scope = globalThis as Partial<Pick<Window, 'addEventListener' | 'removeEventListener'>>;
  try {
    const provider =
      options.provider === undefined ? (hasGeolocation() ? createGeolocationProvider() : null) : options.provider;
    const bg = await BackgroundGeolocation.open({
      store,
      transport: options.transport ?? createFetchTransport(),
      network,
      uploadGate,
      ...(appState ? { appState } : {}),
      ...(provider ? { trackingProvider: provider } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      device: await deviceInfo(store, options.device),
      ...positionsFrom(options.locationProvider),
      defer: (fn) => void setTimeout(fn, LOG_FLUSH_DELAY_MS),
      dispose: () => {
        scope.removeEventListener?.('pagehide', flushLog);
        leadership?.release();
        tabs?.close();
        if (ownNetwork) network.close?.();
      },
    });
    flushLog = () => void bg.log.flush();
    scope.addEventListener?.('pagehide', flushLog);
    // The leader runs the sync() another tab asks for.
    if (tabs) tabs.serveSync = () => bg.sync();
    await leadership?.settled();
    return bg;
  } catch (error) {
    leadership?.release();
    tabs?.close();
    if (ownNetwork) network.close?.();
    await store.close();
    throw error;
  }
}

/** The engine's upload gate over the tabs' Web Lock leadership and their BroadcastChannel. */
function tabGate(tabs: TabChannel, leadership: UploadLeadership): UploadGate {
  return {
    get open() {
      return leadership.isLeader;
    },
    onOpen: (listener) => leadership.onLeader(listener),
    onQueuedElsewhere(listener) {
      tabs.onQueued = listener;
      return () => (tabs.onQueued = null);
    },
    queuedHere: () => tabs.notifyQueued(),
    forwardSync: async () => {
      if (leadership.isLeader) return null;
      // A leader that closes mid-sync never answers; the lock it held may come here, and this tab
      // then runs the sync() itself rather than wait out FORWARDED_SYNC_MAX_MS.
      let unsubscribe = () => {};
      const leading = new Promise<void>((resolve) => (unsubscribe = leadership.onLeader(resolve)));
      try {
        return await tabs.requestSync(leading);
      } finally {
        unsubscribe();
      }
    },
  };
}
