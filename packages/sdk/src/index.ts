export { BackgroundGeolocation } from './background-geolocation.js';
export type { BackgroundGeolocationDeps, DeviceInfo, LocationQuery, State } from './background-geolocation.js';
export { WaypostError, isWaypostError, type WaypostErrorCode } from './errors.js';
export * from './ports/index.js';
export type * from './config/types.js';
export {
  CONFIG_FIELDS,
  GROUP_NAMES,
  REMOTE_COMMANDS,
  LOG_LEVELS,
  defaultConfig,
  describeDefault,
} from './config/fields.js';
export type { FieldSpec } from './config/fields.js';
export { FLAT_KEYS, IGNORED_ANCHOR_KEYS } from './config/flat-keys.js';
export { applyConfigInput } from './config/apply.js';
export type * from './events/types.js';
export type { Subscription } from './events/emitter.js';
export type { Location, LocationInput, Coords, GeofenceAction } from './records/location.js';
export { buildPayload } from './http/payload.js';
export { decideAutoUpload } from './queue/upload-policy.js';
export type { SyncTrigger, AutoTrigger, PolicyState } from './queue/upload-policy.js';
export { classifyResponse, classifyFailure } from './queue/outcome.js';
export type { UploadOutcome } from './queue/outcome.js';
export { RETENTION_INTERVAL_MS } from './queue/retention.js';
export { LOG_UPLOAD_COALESCE_MS, MAX_QUEUED_LOG_UPLOADS } from './log/log-uploader.js';
export { MAX_JSON_DEPTH, MAX_JSON_NODES, MAX_JSON_CHARS } from './records/json-bounds.js';
export { MAX_TIMESTAMP_MS } from './records/location.js';
export { decideAfterOutcome, retryAfterUntil, MAX_RETRY_AFTER_MS } from './queue/after-outcome.js';
export type { AfterOutcomeAction } from './queue/after-outcome.js';
export type { Authorizer } from './auth/authorizer.js';
export { LogLevel } from './log/levels.js';
export { formatLogEntry } from './log/logger.js';
export { systemClock } from './clock/system-clock.js';
export { ManualClock } from './clock/manual-clock.js';
export { ManualNetwork, type NetworkState } from './network/manual-network.js';
export { createMemoryStore } from './store/memory-store.js';
export { distanceMeters } from './tracking/odometer.js';
export { TokenAuthorizer, EXPIRY_MARGIN_MS, type AuthorizationStatus } from './auth/token-authorizer.js';
export { parseTokenResponse, toEpochSeconds, type TokenSet } from './auth/token-response.js';
export { refreshRetryAt, REFRESH_BACKOFF_BASE_MS, REFRESH_BACKOFF_MAX_MS } from './auth/refresh-backoff.js';
export {
  parseRemoteCommands,
  REMOTE_KEY,
  MAX_COMMAND_BODY_CHARS,
  type RemoteCommand,
} from './remote/parse-commands.js';
export { parseGeofence, type Geofence, type GeofenceInput } from './geofence/geofence.js';
export { evaluateGeofence, type GeofencePresence, type GeofenceTransition } from './geofence/evaluate.js';
export { MotionDetector, type MotionSettings, type MotionSignal } from './motion/motion-detector.js';
export { SDK_VERSION } from './log/upload-log.js';
export { LOCATION_TAGS, GEOFENCE_TAGS } from './records/template.js';
export { renderConfigTable, CONFIG_TABLE_MARKERS } from './config/config-table.js';
