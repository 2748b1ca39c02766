import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The status a rate-limited request of this route is answered with instead of 429, for a client
     * that would lose what it sent on a 4xx: the OwnTracks iOS app deletes a message answered 4xx
     * and resends one answered 5xx (docs/trackers.md). The Retry-After and the code stay.
     */
    limitedStatus?: 503;
  }
}

/** An error's status as the route answers it: 429 becomes the route's `limitedStatus`, if it has one. */
export function limitedStatus(request: FastifyRequest, status: number): number {
  return status === 429 ? (request.routeOptions.config.limitedStatus ?? status) : status;
}
