import type { startServer } from '@waypost/server';
import type { checkServerOptions } from '@waypost/server/check-options';

export type StartServer = typeof startServer;
export type RunningServer = Awaited<ReturnType<StartServer>>;
export type StartOptions = NonNullable<Parameters<StartServer>[0]>;

/** Loaded on first use, so queue, log and simulate never load the service and its dependencies. */
export async function loadStartServer(): Promise<StartServer> {
  return (await import('@waypost/server')).startServer;
}

/** The service's checks of its options alone: a bad flag is refused without loading the service. */
export async function loadOptionCheck(): Promise<typeof checkServerOptions> {
  return (await import('@waypost/server/check-options')).checkServerOptions;
}

/** The dashboard's address: it has a login form; the admin token never goes in a URL. */
export function dashboardUrl(baseUrl: string): string {
  return `${baseUrl}/`;
}
