import type { startServer } from '@waypost/server';

export type StartServer = typeof startServer;
export type RunningServer = Awaited<ReturnType<StartServer>>;

/** Loaded on first use, so queue, log and simulate never load the service and its dependencies. */
export async function loadStartServer(): Promise<StartServer> {
  return (await import('@waypost/server')).startServer;
}

/** The dashboard's address: it has a login form; the admin token never goes in a URL. */
export function dashboardUrl(baseUrl: string): string {
  return `${baseUrl}/`;
}
