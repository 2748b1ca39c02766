export { buildApp, type BuildOptions } from './app.js';
export { startServer, type RunningServer } from './start.js';
export { DEFAULTS, type ServerOptions } from './options.js';
export { ServerOptionError } from './option-checks.js';
export { DEFAULT_EXPORT_LIMIT, MAX_EXPORT_LIMIT } from './routes/admin.js';
export { deriveUuid } from './ingest/derive-uuid.js';
export { routeSecurity, type RouteSecurity, type CspDirectives } from './http/security-headers.js';
export { INPUT_LIMITS, EARLIEST_TIMESTAMP_MS, MAX_FUTURE_MS } from './ingest/validation.js';
export { REGISTRATION_MODES, type RegistrationMode } from './options.js';
