export * from '@waypost/sdk';
export { createBackgroundGeolocation, DEFAULT_DATABASE, type CreateOptions } from './create.js';
export {
  openSqliteStore,
  configureConnection,
  type Durability,
  type SqliteStoreOptions,
} from './sqlite/sqlite-store.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
export { createFetchTransport, MAX_RESPONSE_BYTES } from './http-transport.js';
export { createLinuxNetworkMonitor, readNetworkType, interfaceType, hasSysfsNetwork } from './network/linux-network.js';
export { createPollingNetworkMonitor, NETWORK_POLL_MS } from './network/polling-monitor.js';
export { createInterfacesNetworkMonitor, readInterfacesType, typeFromName } from './network/interfaces-network.js';
export { createDefaultNetworkMonitor } from './network/default-network.js';
