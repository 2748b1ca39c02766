// The service's checks of its options alone, without the service: a command line refuses a bad flag
// before it loads Fastify, the database drivers and the routes (about 0.4 s of CPU each start).
import { resolveOptions, type ServerOptions } from './options.js';

/** Throws the ServerOptionError startServer() would throw for these options, before it opens anything. */
export function checkServerOptions(options: ServerOptions): void {
  resolveOptions(options);
}
