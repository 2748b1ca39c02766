import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { deviceEventHistory } from '../fleet/event-history.js';
import { EVENT_TYPES } from '../fleet/fleet-event.js';
import { findDevice } from '../store/devices.js';
import { failures } from '../http/route-schema.js';
import { integerParam, timeParam } from './query-params.js';
import { DEVICE_PARAMS, DEVICE_READER_FAILURES, queryOf, queryText, RANGE_QUERY } from './schemas/read-common.js';
import { ACCESS } from '../accounts/route-rules.js';

export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 1000;

/** One event as sinks receive it; `data` is whatever its type carries (kept whole). */
const EVENT = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Stable: the same event always has the same id' },
    type: { type: 'string', enum: EVENT_TYPES },
    device: { type: 'string' },
    timestamp: { type: 'string', description: 'When it happened, in device time (ISO-8601)' },
    receivedAt: { type: 'string', description: 'When the server learned of it (ISO-8601)' },
    late: { type: 'boolean', description: 'Decided from records that arrived out of order or long after' },
    data: { type: 'object', additionalProperties: true },
  },
  required: ['id', 'type', 'device', 'timestamp', 'receivedAt', 'late', 'data'],
  additionalProperties: false,
} as const;

const SCHEMA = {
  summary: "A device's fleet events in a device-time range, the newest `limit` of them in the order they happened",
  params: DEVICE_PARAMS,
  querystring: {
    ...queryOf({
      ...RANGE_QUERY,
      limit: {
        ...queryText(`Events at most, 1..${MAX_HISTORY_LIMIT} (default ${DEFAULT_HISTORY_LIMIT})`),
        pattern: '^[0-9]{1,6}$',
      },
    }),
  },
  response: {
    200: {
      type: 'object',
      properties: {
        deviceId: { type: 'string' },
        events: { type: 'array', items: EVENT },
        truncated: { type: 'boolean', description: 'Older events in the range were left out' },
      },
      required: ['deviceId', 'events', 'truncated'],
      additionalProperties: false,
    },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
  },
} as const;

/**
 * GET /api/devices/:id/fleet-events: the device's fleet events (issue 21) from the history, in a
 * device-time range, the newest `limit` of them in the order they happened. Admin.
 */
export const fleetHistoryRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.withTypeProvider<JsonSchemaToTsProvider>().get(
    '/api/devices/:id/fleet-events',
    {
      config: ACCESS.viewer.device,
      preHandler: async (request) => requireAdmin(ctx, request),
      schema: SCHEMA,
    },
    async (request) => {
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
