export { buildApp, type BuildOptions } from './app.js';
export { startServer, type RunningServer } from './start.js';
export { DEFAULTS, type ServerOptions } from './options.js';
export { DEFAULT_EXPORT_LIMIT, MAX_EXPORT_LIMIT } from './routes/admin.js';
export { deriveUuid } from './ingest/derive-uuid.js';
