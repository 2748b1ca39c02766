import { readFileSync } from 'node:fs';
import { hostname, release } from 'node:os';
import {
  BackgroundGeolocation,
  checkOptions,
  type CommonCreateOptions,
  createFetchTransport,
  persistentDeviceUuid,
  PORT_RULES,
  type OptionRules,
  systemClock,
  type LocationProvider,
  type DeviceInfo,
  type NetworkMonitor,
  type Store,
} from '@waypost/sdk/internal';
import { createBatteryReader, type BatteryFacts } from './host/battery.js';
import { createDefaultNetworkMonitor } from './network/default-network.js';
import { openSqliteStore, type Durability } from './sqlite/sqlite-store.js';

export interface CreateOptions extends CommonCreateOptions {
  /** SQLite file of the queue, log, configuration and geofences; ':memory:' allowed. */
  database?: string;
  /** Default: the host's interfaces (Linux sysfs, else os.networkInterfaces()). ManualNetwork for tests and embedding. */
  network?: NetworkMonitor;
  /** NORMAL (default) survives crashes; FULL also survives power loss, with an fsync per insert. */
  durability?: Durability;
  /**
   * The battery put on records whose input carries none. Default: the host's, from
   * /sys/class/power_supply (level -1 when the host has no battery); false: always unknown.
   */
  battery?: false | (() => BatteryFacts);
  /**
   * Serves getCurrentPosition() and watchPosition() (a gpsd, NMEA or GPX provider, or your own).
   * Without one they reject with NO_LOCATION_PROVIDER.
   */
  locationProvider?: LocationProvider;
  /**
   * Records its fixes while tracking is enabled (start() to stop(), and tracking resumed by
   * ready()): a gpsd, NMEA or GPX provider, or your own. Its errors go to the SDK log.
   */
  trackingProvider?: LocationProvider;
  /** Sends logger.emailLog(); without it (Node has no mail of its own) emailLog rejects NOT_SUPPORTED. */
  mail?: (message: { to: string; subject: string; text: string }) => Promise<void>;
}

export const DEFAULT_DATABASE = './waypost.db';

/**
 * Log lines are written this long after the first of a batch, in one transaction. Written every
 * event-loop turn instead, a drain of one record per request committed the log once a record, a
 * third of its SQLite commits (lock, delete, log). Records are never deferred; close() writes what
 * is pending, a crash loses at most this much of the log (as with the browser's 250 ms).
 */
export const LOG_FLUSH_DELAY_MS = 50;

/** What each option may be: checked before anything is opened (INVALID_OPTION naming it). */
const OPTION_RULES = {
  ...PORT_RULES,
  database: { kind: 'string', nonEmpty: true },
  durability: { kind: 'oneOf', values: ['NORMAL', 'FULL'] },
  battery: { kind: 'falseOrFunction' },
  locationProvider: { kind: 'port', methods: ['start', 'stop'] },
  trackingProvider: { kind: 'port', methods: ['start', 'stop'] },
  mail: { kind: 'function' },
} as const satisfies OptionRules & Record<keyof CreateOptions, unknown>;

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The device's identity: a uuid made once and kept in the database, and what the host says. */
async function deviceInfo(store: Store, given: Partial<DeviceInfo> = {}): Promise<DeviceInfo> {
  const uuid = await persistentDeviceUuid(store, given.uuid);
  return {
    uuid,
    model: given.model ?? hostname(),
    manufacturer: given.manufacturer ?? 'unknown',
    platform: given.platform ?? process.platform,
    version: given.version ?? release(),
  };
}

/**
 * Opens Waypost on Node: the SQLite queue, fetch, the host's network and clock. Queue reads work
 * at once; call ready(config) before start().
 */
export async function createBackgroundGeolocation(options: CreateOptions = {}): Promise<BackgroundGeolocation> {
  checkOptions(options, OPTION_RULES, 'createBackgroundGeolocation');
  const store =
    options.store ??
    openSqliteStore(options.database ?? DEFAULT_DATABASE, { durability: options.durability ?? 'NORMAL' });
  const ownNetwork = options.network === undefined;
  const network = options.network ?? createDefaultNetworkMonitor();
  try {
    const bootId = readBootId();
    return await BackgroundGeolocation.open({
      store,
      transport: options.transport ?? createFetchTransport(),
      network,
      ...(options.clock ? { clock: options.clock } : {}),
      device: await deviceInfo(store, options.device),
      defer: (fn) => void setTimeout(fn, LOG_FLUSH_DELAY_MS),
      ...(bootId ? { bootId } : {}),
      ...(options.battery !== false
        ? { battery: options.battery ?? createBatteryReader(() => (options.clock ?? systemClock).now()) }
        : {}),
      ...(ownNetwork ? { dispose: () => network.close?.() } : {}),
      ...(options.locationProvider ? { locationProvider: options.locationProvider } : {}),
      ...(options.trackingProvider ? { trackingProvider: options.trackingProvider } : {}),
      ...(options.mail ? { mail: options.mail } : {}),
    });
  } catch (error) {
    if (ownNetwork) network.close?.();
    await store.close();
    throw error;
  }
}
