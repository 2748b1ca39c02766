import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ACCESS } from '../accounts/route-rules.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerHealth: startServer's drain() turns it on. */
    waypostDrain: DrainState;
  }
}

/** Whether this process is draining: told to stop, still serving, out of its load balancer's rotation soon. */
export interface DrainState {
  draining: boolean;
}

/** The log code of the line saying a process drains before it closes. */
export const SERVER_DRAINING = 'SERVER_DRAINING';

/**
 * GET /health: 200 while the process serves; 503 while it drains (SIGTERM with a drain time: the
 * load balancer's checks fail and it stops sending requests here, while those that still come are
 * served as usual, uploads included, until the process closes), and 503 while it holds
 * `maxConnections` open connections (issue 45): every new one, a device's upload included, is
 * closed unanswered then, which a check on a connection kept open would not see otherwise.
 */
const HEALTH_SCHEMA = {
  summary: "The process's health, for a load balancer's checks",
  response: {
    200: {
      description: 'Serving',
      type: 'object',
      properties: { ok: { type: 'boolean', enum: [true] } },
      required: ['ok'],
      additionalProperties: false,
    },
    503: {
      description: 'Draining before a stop, or holding as many connections as it serves',
      type: 'object',
      properties: {
        ok: { type: 'boolean', enum: [false] },
        draining: { type: 'boolean' },
        connectionsFull: { type: 'boolean' },
      },
      required: ['ok'],
      additionalProperties: false,
    },
  },
} as const;

export function registerHealth(app: FastifyInstance, maxConnections: number): void {
  const state: DrainState = { draining: false };
  app.decorate('waypostDrain', state);
  let connections = 0;
  app.server.on('connection', (socket: Socket) => {
    connections += 1;
    socket.once('close', () => (connections -= 1));
  });
  app.get('/health', { schema: HEALTH_SCHEMA, config: ACCESS.public }, async (_request, reply) => {
    if (state.draining) return reply.code(503).send({ ok: false, draining: true });
    if (connections >= maxConnections) return reply.code(503).send({ ok: false, connectionsFull: true });
    return { ok: true };
  });
}

/** Drains for `ms`: /health answers 503 meanwhile. Resolves when the time is up (then close). */
export async function drainFor(state: DrainState, ms: number): Promise<void> {
  state.draining = true;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}
