export * from '@waypost/sdk';
export { createBackgroundGeolocation, DEFAULT_DATABASE, LOG_FLUSH_DELAY_MS, type CreateOptions } from './create.js';
export {
  openSqliteStore,
  configureConnection,
  type Durability,
  type SqliteStoreOptions,
} from './sqlite/sqlite-store.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';

export { createLinuxNetworkMonitor, readNetworkType, interfaceType, hasSysfsNetwork } from './network/linux-network.js';
export { createPollingNetworkMonitor, NETWORK_POLL_MS } from './network/polling-monitor.js';
export { createInterfacesNetworkMonitor, readInterfacesType, typeFromName } from './network/interfaces-network.js';
export { createDefaultNetworkMonitor } from './network/default-network.js';
export {
  parseNmeaLine,
  nmeaChecksum,
  MAX_SENTENCE_CHARS,
  type NmeaSentence,
  type NmeaLineResult,
} from './providers/nmea-sentence.js';
export { NmeaEpochAssembler } from './providers/nmea-epoch.js';
export { NmeaDecoder, type NmeaStats } from './providers/nmea-decoder.js';
export { parseGpsdReport, GPSD_WATCH_COMMAND } from './providers/gpsd-report.js';
export {
  createGpsdProvider,
  GPSD_DEFAULT_HOST,
  GPSD_DEFAULT_PORT,
  type GpsdOptions,
} from './providers/gpsd-provider.js';
export {
  createNmeaTcpProvider,
  createNmeaSerialProvider,
  createNmeaFileProvider,
  DEFAULT_BAUD,
  type NmeaProvider,
} from './providers/nmea-provider.js';
export { parseGpxTrack, MAX_GPX_BYTES } from './providers/gpx-track.js';
export { createGpxReplayProvider, type GpxReplayOptions } from './providers/gpx-provider.js';
export { replayAtPace } from './providers/replay.js';
export { reconnectDelayMs, RECONNECT_BASE_MS, RECONNECT_MAX_MS } from './providers/reconnect.js';
export { ProviderError, type ProviderErrorCode } from './providers/provider-error.js';
export {
  parseSource,
  createProviderFromSource,
  isFiniteSource,
  SourceError,
  SOURCE_FORMS,
  type SourceSpec,
} from './providers/source.js';
export {
  readBattery,
  createBatteryReader,
  POWER_SUPPLY_DIR,
  BATTERY_CACHE_MS,
  type BatteryFacts,
} from './host/battery.js';
