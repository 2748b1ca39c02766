// The public API of @waypost/sdk: the facade, its configuration, events, records and errors, the
// ports a platform implements, and the doubles tests use. Semver covers exactly this. What the
// adapters (@waypost/node, @waypost/browser), the server and the CLI share beyond it is in
// '@waypost/sdk/internal' (internal.ts), which may change in any release.
export { BackgroundGeolocation } from './background-geolocation.js';
export type {
  AnchorDeviceInfo,
  BackgroundGeolocationDeps,
  DeviceInfo,
  LocationQuery,
  State,
} from './background-geolocation.js';
export type { LogLevelNumber } from './anchor/anchor-state.js';
export type { AnchorLocation } from './anchor/anchor-location.js';
export type { MotionChangeEvent, HeartbeatEvent, GeofenceEvent, MotionActivityEvent } from './anchor/anchor-events.js';
export type { AnchorLogger } from './facade/logger-group.js';
export type { CurrentPositionRequest, WatchPositionRequest } from './tracking/position-requests.js';
export type { ReceiptDay } from './receipts/receipt-days.js';
export { ORDER_ASC, ORDER_DESC } from './store/query.js';
export { WaypostError, isWaypostError, type WaypostErrorCode } from './errors.js';
export type { CommonCreateOptions } from './options/check-options.js';
export * from './ports/index.js';
export type * from './config/types.js';
export type * from './config/input-types.js';
export type * from './events/types.js';
export type { Subscription } from './events/emitter.js';
export type { Location, LocationInput, Coords, GeofenceAction, MotionActivityType } from './records/location.js';
export { MOTION_ACTIVITY_TYPES } from './records/location.js';
export { MAX_RESPONSE_BYTES } from './http/read-bounded.js';
export { createFetchTransport, type FetchTransportOptions } from './http/fetch-transport.js';
export { LogLevel } from './log/levels.js';
export { systemClock } from './clock/system-clock.js';
export { ManualClock } from './clock/manual-clock.js';
export { ManualNetwork, type NetworkState } from './network/manual-network.js';
export { createMemoryStore } from './store/memory-store.js';
export type { Geofence, GeofenceInput, Vertices } from './geofence/geofence.js';
export { SDK_VERSION } from './log/upload-log.js';
