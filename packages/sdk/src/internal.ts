// '@waypost/sdk/internal': what the adapters, the server and the CLI share with the core beyond
// its public API (index.ts). Not covered by semver; applications use the public entry.
export * from './index.js';
export { PositionRequests, LOCATION_UNKNOWN } from './tracking/position-requests.js';
export {
  findOrCreateToken,
  register,
  destroyToken,
  DEFAULT_REGISTRATION_URL,
  REGISTER_PATH,
  DUMMY_TOKEN,
  type Registration,
  type RegistrationDeps,
} from './auth/transistor-registration.js';
export { ReRegistration } from './auth/reregistration.js';
export { LOCATIONS_PATH, REFRESH_TOKEN_PATH } from './config/transistor-token.js';
export { parseLocationQuery, parseLogQuery, type LogQueryInput, type OrderInput } from './store/query.js';
export { checkOptions, PORT_RULES, type OptionRule, type OptionRules } from './options/check-options.js';
export { CONFIG_FIELDS, GROUP_NAMES, defaultConfig, describeDefault } from './config/fields.js';
export { REMOTE_COMMANDS } from './config/upload-fields.js';
export { LOG_LEVELS } from './config/device-fields.js';
export type { FieldSpec } from './config/field-spec.js';
export { FLAT_KEYS } from './config/flat-keys.js';
export { KEPT_FLAT_KEYS, ANCHOR_GROUPS, keptKeysOf, type AnchorGroup, type KeptKind } from './config/anchor-keys.js';
export { applyConfigInput } from './config/apply.js';
export { nearestKey } from './config/suggest.js';
export { buildPayload } from './http/payload.js';
export { persistentDeviceUuid } from './lifecycle/device-uuid.js';
export { readBoundedText } from './http/read-bounded.js';
export { decideAutoUpload } from './queue/upload-policy.js';
export type { SyncTrigger, AutoTrigger, PolicyState } from './queue/upload-policy.js';
export { classifyResponse, classifyFailure } from './queue/outcome.js';
export type { UploadOutcome } from './queue/outcome.js';
export { RETENTION_INTERVAL_MS } from './queue/retention.js';
export { LOG_UPLOAD_COALESCE_MS, MAX_QUEUED_LOG_UPLOADS } from './log/log-uploader.js';
export { MAX_JSON_DEPTH, MAX_JSON_NODES, MAX_JSON_CHARS } from './records/json-bounds.js';
export { MAX_TIMESTAMP_MS } from './records/location.js';
export {
  decideAfterOutcome,
  retryAfterUntil,
  MAX_REFUSALS_PER_FLUSH,
  MAX_RETRY_AFTER_MS,
} from './queue/after-outcome.js';
export { planBatch, refusalBackoffMs, type BatchPlan, type RefusedEntry } from './queue/refused-records.js';
export type { AfterOutcomeAction } from './queue/after-outcome.js';
export type { Authorizer } from './auth/authorizer.js';
export { formatLogEntry } from './log/logger.js';
export { distanceMeters } from './geometry/distance.js';
export { TokenAuthorizer, EXPIRY_MARGIN_MS, type AuthorizationStatus } from './auth/token-authorizer.js';
export { parseTokenResponse, toEpochSeconds, type TokenSet } from './auth/token-response.js';
export { refreshRetryAt, REFRESH_BACKOFF_BASE_MS, REFRESH_BACKOFF_MAX_MS } from './auth/refresh-backoff.js';
export {
  parseRemoteCommands,
  REMOTE_KEY,
  MAX_COMMAND_BODY_CHARS,
  type RemoteCommand,
} from './remote/parse-commands.js';
export { COMMAND_TABLE, checkRemoteCommand, type CommandRule } from './remote/command-table.js';
export { parseGeofence, MAX_VERTICES } from './geofence/geofence.js';
export {
  evaluateGeofence,
  insidePolygon,
  type GeofencePresence,
  type GeofenceTransition,
} from './geofence/evaluate.js';
export { MotionDetector, type MotionSettings, type MotionSignal } from './motion/motion-detector.js';
export { LOCATION_TAGS, GEOFENCE_TAGS } from './records/template.js';
export { renderConfigTable, CONFIG_TABLE_MARKERS } from './config/config-table.js';
export {
  renderErrorCodeTable,
  ERROR_CODE_TABLE_MARKERS,
  ERROR_CODE_MEANINGS,
  REPORTED_CODE_MEANINGS,
} from './errors.js';
// The delivery ledger's protocol (issue 19), shared with the server: sequence ranges and the
// Waypost-Dropped header.
export { EPOCH_KEY, EPOCH_PATTERN, nextNumber, type NumberStep } from './ledger/epoch.js';
export {
  countOf as countInRanges,
  normalize as normalizeRanges,
  subtract as subtractRanges,
  type Range as SequenceRange,
} from './ledger/ranges.js';
export {
  DROP_REASONS,
  DROPPED_HEADER,
  LEDGER_HEADER,
  LEDGER_EPOCHS_HEADER,
  MAX_DROPPED_HEADER_CHARS,
  MAX_DROPPED_RANGES,
  formatDroppedHeader,
  parseDroppedHeader,
  type DroppedReport,
  type PendingDrops,
} from './ledger/dropped-header.js';
// Delivery receipts (issue 46), shared with the server.
export {
  RECEIPTS_OFFERED_HEADER,
  RECEIPTS_HEADER,
  RECEIPT_HEADER,
  RECEIPT_KEY_HEADER,
  RECEIPT_KEYS_PATH,
  base64url,
  encodePayload as encodeReceiptPayload,
  parseReceipt,
  parseReceiptKeyHeader,
  receiptDigest,
  importReceiptKey,
  verifySigned as verifyReceiptSignature,
  type ReceiptPayload,
  type ReceiptedRecord,
} from './receipts/receipt.js';
export type { ArchiveEntry, ArchivedRecord, ReceiptArchive } from './ports/archive.js';
export {
  RECEIPTED_HEADER,
  formatReceiptedHeader,
  parseReceiptedHeader,
  type ReceiptClaim,
} from './receipts/receipted-header.js';
// The response headers the SDK reads: a server on another origin must expose them (CORS).
export { READ_HEADERS as RESPONSE_HEADERS_READ } from './http/fetch-transport.js';
export {
  encodeColumnar,
  decodeColumnar,
  COLUMNAR_VERSION,
  COLUMNAR_VERSIONS,
  type ColumnarVersion,
} from './codec/columnar.js';
export { CodecError } from './codec/bytes.js';
export { COLUMNAR_LIMITS } from './codec/limits.js';
export { COLUMNAR_CODING, COLUMNAR_CODING_2, COLUMNAR_CODING_3, COLUMNAR_TOKENS } from './http/compression.js';
export { encodeBody, gzip } from './http/compression.js';
export {
  HEALTH_HEADER,
  HEALTH_ACCEPTED_HEADER,
  MAX_HEALTH_HEADER_CHARS,
  formatHealthHeader,
  parseHealthHeader,
  type HealthReport,
  type FailureClass,
} from './health/health-header.js';
