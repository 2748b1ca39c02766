import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { deviceEventHistory } from '../fleet/event-history.js';
import { EVENT_TYPES } from '../fleet/fleet-event.js';
import { findDevice } from '../store/devices.js';
import { integerParam, timeParam, type Query } from './query-params.js';
import { ACCESS } from '../accounts/route-rules.js';

export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 1000;

const QUERY = {
  type: 'object',
  properties: {
    from: { type: 'string', maxLength: 40 },
    to: { type: 'string', maxLength: 40 },
    limit: { type: 'string', pattern: '^[0-9]{1,6}$' },
  },
} as const;

/** One event as sinks receive it; `data` is whatever its type carries (kept whole). */
const EVENT = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: EVENT_TYPES },
    device: { type: 'string' },
    timestamp: { type: 'string' },
    receivedAt: { type: 'string' },
    late: { type: 'boolean' },
    data: { type: 'object', additionalProperties: true },
  },
} as const;

const REPLY = {
  200: {
    type: 'object',
    properties: {
      deviceId: { type: 'string' },
      events: { type: 'array', items: EVENT },
      truncated: { type: 'boolean' },
    },
  },
} as const;

type Request = FastifyRequest<{ Params: { id: string }; Querystring: Query }>;

/**
 * GET /api/devices/:id/fleet-events: the device's fleet events (issue 21) from the history, in a
 * device-time range, the newest `limit` of them in the order they happened. Admin.
 */
export const fleetHistoryRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/devices/:id/fleet-events',
    {
      config: ACCESS.viewer.device,
      preHandler: async (request) => requireAdmin(ctx, request),
      schema: { querystring: QUERY, response: REPLY },
    },
    async (request: Request) => {
      const deviceId = request.params.id;
      const from = timeParam(request.query, 'from');
      const to = timeParam(request.query, 'to');
      const limit = integerParam(request.query, 'limit', 1, MAX_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT);
      if (!(await findDevice(ctx.db, deviceId)))
        throw new HttpError(404, 'UNKNOWN_DEVICE', 'No such device on this server');
      return { deviceId, ...(await deviceEventHistory(ctx.db, { deviceId, from, to }, limit)) };
    },
  );
};
