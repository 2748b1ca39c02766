import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { locationCutoffOf } from '../retention/retention-store.js';
import { findDevice } from '../store/devices.js';
import { TrackTileWorker } from '../track-tiles/tile-worker.js';
import { MAX_TILE_ZOOM } from '../track-tiles/tile-math.js';
import { timeParam } from './query-params.js';
import { breaksParam } from '../tracks/split-at-breaks.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { BUILDING_RETRY_S, readTrackTile } from '../track-tiles/tile-reader.js';
import { DEVICE_READER_FAILURES, queryOf, queryText, RANGE_QUERY } from './schemas/read-common.js';

type Params = { id: string; z: string; x: string; y: string };

const coordinate = (description: string) => ({ type: 'string', description }) as const;

const SCHEMA = {
  summary: "One tile of a device's track over a range: its segments in tile pixels",
  params: {
    type: 'object',
    properties: {
      id: { type: 'string', description: "The device's id" },
      z: coordinate(`Zoom, 0..${MAX_TILE_ZOOM}`),
      x: coordinate('Column, 0..2^z-1'),
      y: coordinate('Row, 0..2^z-1'),
    },
    required: ['id', 'z', 'x', 'y'],
  },
  querystring: queryOf({
    ...RANGE_QUERY,
    breaks: queryText("The ledger's holes as from:to epoch ms, comma separated: no segment drawn across one"),
  }),
  response: {
    200: {
      type: 'object',
      properties: {
        z: { type: 'integer' },
        x: { type: 'integer' },
        y: { type: 'integer' },
        segments: {
          type: 'array',
          items: { type: 'number' },
          description: 'x1, y1, x2, y2, ... per segment, in pixels of a 256-pixel tile',
        },
      },
      required: ['z', 'x', 'y', 'segments'],
      additionalProperties: false,
      headers: { 'cache-control': { type: 'string', description: 'private, no-cache' } },
    },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
    503: {
      ...failures('TRACK_TILES_BUILDING')[503]!,
      headers: {
        'retry-after': { type: 'string', description: `Seconds, ${BUILDING_RETRY_S}: the builder's next pass` },
      },
    },
  },
} as const;

/** A tile coordinate: digits only, within the zoom's grid; anything else a 400 naming it. */
function tileParams(params: Params): { z: number; x: number; y: number } {
  const int = (name: 'z' | 'x' | 'y', max: number) => {
    const raw = params[name];
    const value = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
    if (!(value <= max))
      throw badRequest('INVALID_PARAMETER', `${name} must be an integer 0..${max}, got ${raw.slice(0, 20)}`);
    return value;
  };
  const z = int('z', MAX_TILE_ZOOM);
  return { z, x: int('x', 2 ** z - 1), y: int('y', 2 ** z - 1) };
}

/**
 * A device's track as tiles (issue 32): what the dashboard draws for a long history, whose cost
 * grows with the tiles in view, not with the records in the range. Starts the builder that keeps
 * the pyramid up to date.
 */
export const trackTileRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const worker = new TrackTileWorker(
    ctx.db,
    ctx.now,
    (err) =>
      app.log.error({ code: 'TRACK_TILES_BUILD_FAILED', err }, 'track tiles: a build pass failed; retried at the next'),
    (deviceId) => locationCutoffOf(ctx.db, ctx.options.retention, deviceId, ctx.now()),
  );
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.close());

  app
    .withTypeProvider<JsonSchemaToTsProvider>()
    .get(
      '/api/dashboard/devices/:id/track-tiles/:z/:x/:y',
      { config: ACCESS.viewer.device, preHandler: async (request) => requireAdmin(ctx, request), schema: SCHEMA },
      async (request, reply) => {
        const { z, x, y } = tileParams(request.params);
        const deviceId = request.params.id;
        if (!(await findDevice(ctx.db, deviceId)))
          throw new HttpError(404, 'UNKNOWN_DEVICE', 'No such device on this server');
        const from = timeParam(request.query, 'from');
        const to = timeParam(request.query, 'to');
        // The ledger's holes (breaks=from:to,... as on /track): no segment drawn across them.
        const breaks = breaksParam(request.query.breaks);
        const segments = await readTrackTile(ctx.db, { deviceId, z, x, y, from, to, breaks });
        void reply.header('cache-control', 'private, no-cache');
        return { z, x, y, segments };
      },
    );
};
