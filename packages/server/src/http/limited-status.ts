import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The status a rate-limited request of this route is answered with instead of 429, for a client
     * that would lose what it sent on a 4xx: the OwnTracks iOS app deletes a message answered 4xx
     * and resends one answered 5xx (docs/trackers.md). The Retry-After and the code stay.
     */
    limitedStatus?: 503;
    /**
     * The status a refused device credential (401) is answered with on this route, for a client
     * that would lose what it sent on a 4xx (OwnTracks iOS; the Capacitor plugin drops a batch on a
     * 4xx other than 408 and 429): a revoked key then leaves the points queued on the phone until
     * its new key is entered. The code stays.
     */
    credentialRefusedStatus?: 503;
  }
}

/** An error's status as the route answers it: 429 and 401 become the route's own statuses for them, if it has them. */
export function limitedStatus(request: FastifyRequest, status: number): number {
  const config = request.routeOptions.config;
  if (status === 429) return config.limitedStatus ?? status;
  return status === 401 ? (config.credentialRefusedStatus ?? status) : status;
}
