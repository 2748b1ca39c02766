export * from '@waypost/sdk';
export { createBackgroundGeolocation, DEFAULT_DATABASE, type CreateOptions } from './create.js';
export { openIndexedDbStore, deleteIndexedDbStore, type IndexedDbStoreOptions } from './store/indexeddb-store.js';
export { SCHEMA_VERSION } from './store/schema.js';
export type { Durability } from './store/location-queue.js';
export { createFetchTransport, KEEPALIVE_MAX_BYTES } from './fetch-transport.js';

export { createBrowserNetworkMonitor, networkTypeOf, type NetworkHost } from './browser-network.js';
export { createGeolocationProvider, positionToInput, type GeolocationProviderOptions } from './geolocation-provider.js';
export { requestUploadLeadership, uploadLockName, type UploadLeadership } from './upload-leadership.js';
export {
  drainQueue,
  installServiceWorkerUploads,
  registerBackgroundUploads,
  SYNC_TAG,
  PERIODIC_SYNC_MIN_INTERVAL_MS,
  type DrainOptions,
  type DrainResult,
} from './service-worker.js';
