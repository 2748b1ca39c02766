import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findDevice } from '../store/devices.js';
import { readLedger } from '../store/ledger.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { DEVICE_PARAMS, DEVICE_READER_FAILURES, MS_OR_NULL } from './schemas/read-common.js';

/** Gaps answered at most (the oldest first): a device missing records everywhere gets the first ones. */
export const MAX_GAPS = 200;

/** Where a hole's edge record was: [latitude, longitude]; null when it is not stored or has no position. */
const EDGE_POINT = {
  type: ['array', 'null'],
  items: { type: 'number' },
  minItems: 2,
  maxItems: 2,
  description: '[latitude, longitude] of the record at that edge; null: not stored, or no position',
} as const;

const SCHEMA = {
  summary: "The delivery ledger's missing ranges of a device, placed in time and space",
  params: DEVICE_PARAMS,
  response: {
    200: {
      type: 'object',
      properties: {
        gaps: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              first: { type: 'integer', description: 'The first missing sequence number' },
              last: { type: 'integer', description: 'The last missing sequence number' },
              missing: { type: 'integer' },
              epoch: { type: ['string', 'null'], description: 'The numbering the range belongs to' },
              from: { ...MS_OR_NULL, description: 'When the record just before was recorded (epoch ms)' },
              to: { ...MS_OR_NULL, description: 'When the record just after was recorded (epoch ms)' },
              fromPoint: EDGE_POINT,
              toPoint: EDGE_POINT,
            },
            required: ['first', 'last', 'missing', 'epoch', 'from', 'to', 'fromPoint', 'toPoint'],
            additionalProperties: false,
          },
        },
        truncated: { type: 'boolean', description: `More than ${MAX_GAPS} ranges: the oldest are answered` },
      },
      required: ['gaps', 'truncated'],
      additionalProperties: false,
    },
    ...failures(...DEVICE_READER_FAILURES),
  },
} as const;

/**
 * `GET /api/dashboard/devices/:id/gaps` (admin): the ledger's missing ranges placed in time, so the
 * map can draw the track broken where records never arrived instead of straight through the hole:
 * `{ gaps: [{ first, last, missing, epoch, from, to, fromPoint, toPoint }], truncated }` (`epoch`: the
 * numbering the range belongs to, issue 39), where `from` is
 * when the record just before the range was recorded and `to` the one just after (epoch ms; null
 * when that record is not stored either, such as a range at the end that has not arrived yet), and
 * `fromPoint`, `toPoint` where they were (`[latitude, longitude]`, null likewise): a map drawn from
 * tiles bridges the hole without the track's points.
 */
export const trackGapRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app
    .withTypeProvider<JsonSchemaToTsProvider>()
    .get(
      '/api/dashboard/devices/:id/gaps',
      { config: ACCESS.viewer.device, preHandler: (request) => requireAdmin(ctx, request), schema: SCHEMA },
      async (request) => {
        const device = await findDevice(ctx.db, request.params.id);
        if (!device) throw new HttpError(404, 'UNKNOWN_DEVICE', 'No such device on this server');
        const ledger = await readLedger(ctx.db, device.id, {
          duplicates: Number(device.duplicates),
          quarantined: Number(device.quarantined ?? 0),
        });
        // Every numbering's holes (a device whose queue started again has one numbering per start).
        const all = ledger.epochs.flatMap((e) => e.missingRanges.map((range) => ({ epoch: e.epoch, range })));
        const ranges = all.slice(0, MAX_GAPS);
        // Each edge's first stored record (a sequence stored twice counts once): its time and place.
        const found = new Map<string, { t: number; at: [number, number] | null }>();
        const edgeKey = (epoch: string | null, sequence: number) => `${epoch ?? ''}\u0000${sequence}`;
        for (const epoch of new Set(ranges.map((r) => r.epoch))) {
          const edges = [
            ...new Set(
              ranges.filter((r) => r.epoch === epoch).flatMap(({ range: [first, last] }) => [first - 1, last + 1]),
            ),
          ];
          type Row = { sequence: number | string; t: number | string; lat: number | null; lon: number | null };
          const rows = await ctx.db.query<Row>(
            `SELECT sequence, recorded_at AS t, latitude AS lat, longitude AS lon FROM locations
           WHERE device_id = ? AND ${epoch === null ? 'sequence_epoch IS NULL' : 'sequence_epoch = ?'}
             AND sequence IN (${edges.map(() => '?').join(', ')}) ORDER BY recorded_at, id`,
            [device.id, ...(epoch === null ? [] : [epoch]), ...edges],
          );
          for (const row of rows) {
            const at: [number, number] | null = row.lat === null || row.lon === null ? null : [row.lat, row.lon];
            const key = edgeKey(epoch, Number(row.sequence));
            if (!found.has(key)) found.set(key, { t: Number(row.t), at });
          }
        }
        return {
          gaps: ranges.map(({ epoch, range: [first, last] }) => ({
            first,
            last,
            missing: last - first + 1,
            epoch,
            from: found.get(edgeKey(epoch, first - 1))?.t ?? null,
            to: found.get(edgeKey(epoch, last + 1))?.t ?? null,
            fromPoint: found.get(edgeKey(epoch, first - 1))?.at ?? null,
            toPoint: found.get(edgeKey(epoch, last + 1))?.at ?? null,
          })),
          truncated: all.length > MAX_GAPS,
        };
      },
    );
};
