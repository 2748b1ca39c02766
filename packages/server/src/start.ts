import { buildApp, type BuildOptions } from './app.js';
import { redactedUrl } from './fleet/sinks/broker-names.js';
import { drainFor } from './http/drain.js';
import { resolveOptions } from './options.js';
import { filesNotYetThere, removeMadeFiles } from './start-files.js';

export interface RunningServer {
  url: string;
  port: number;
  adminToken: string;
  /** Where a generated admin token is kept (a file beside the SQLite database, or the database); null when it was given. */
  adminTokenKeptIn: string | null;
  /** The fleet-event sinks given in the options (webhooks, mqttUrl, natsUrl), a webhook's secret among them. */
  sinks: { id: string; kind: string; url: string; secret: string | null }[];
  /**
   * Drains for `ms` before closing (SIGTERM behind a load balancer): /health answers 503, so the
   * balancer's checks take this process out of rotation, while every request that still comes is
   * served. Then close() finishes the requests in flight.
   */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service and listens; close() stops it and closes the database. */
export async function startServer(options: BuildOptions = {}): Promise<RunningServer> {
  const resolved = resolveOptions(options);
  const made = filesNotYetThere(resolved);
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(options);
  } catch (error) {
    removeMadeFiles(made);
    throw error;
  }
  try {
    await app.listen({ port: resolved.port, host: resolved.host });
  } catch (error) {
    await app.close();
    removeMadeFiles(made);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const ctx = app.waypost;
  return {
    url: `http://${host}:${port}`,
    port,
    adminToken: ctx.options.adminToken,
    adminTokenKeptIn: ctx.options.adminTokenKeptIn,
    sinks: ctx.fleet.cliSinks.map(({ id, kind, url, secret }) => ({ id, kind, url: redactedUrl(url), secret })),
    drain: (ms) => drainFor(app.waypostDrain, ms),
    close: async () => {
      await app.close();
    },
  };
}
