import type { startServer } from '@waypost/server';

export type StartServer = typeof startServer;
export type RunningServer = Awaited<ReturnType<StartServer>>;

/** Loaded on first use, so queue, log and simulate never load the service and its dependencies. */
export async function loadStartServer(): Promise<StartServer> {
  return (await import('@waypost/server')).startServer;
}

/** The dashboard signs in with ?token= (and keeps it in the browser's storage). */
export function dashboardUrl(baseUrl: string, adminToken: string): string {
  return `${baseUrl}/?token=${encodeURIComponent(adminToken)}`;
}
