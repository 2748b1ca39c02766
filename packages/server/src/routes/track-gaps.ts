import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findDevice } from '../store/devices.js';
import { readLedger } from '../store/ledger.js';

/** Gaps answered at most (the oldest first): a device missing records everywhere gets the first ones. */
export const MAX_GAPS = 200;

/**
 * `GET /api/dashboard/devices/:id/gaps` (admin): the ledger's missing ranges placed in time, so the
 * map can draw the track broken where records never arrived instead of straight through the hole:
 * `{ gaps: [{ first, last, missing, from, to }], truncated }`, where `from` is when the record just
 * before the range was recorded and `to` the one just after (epoch ms; null when that record is not
 * stored either, such as a range at the end that has not arrived yet).
 */
export const trackGapRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get<{ Params: { id: string } }>(
    '/api/dashboard/devices/:id/gaps',
    { preHandler: (request) => requireAdmin(ctx, request) },
    async (request) => {
      const device = await findDevice(ctx.db, request.params.id);
      if (!device) throw new HttpError(404, 'UNKNOWN_DEVICE', 'No such device on this server');
      const ledger = await readLedger(ctx.db, device.id, {
        duplicates: Number(device.duplicates),
        quarantined: Number(device.quarantined ?? 0),
      });
      const ranges = ledger.missingRanges.slice(0, MAX_GAPS);
      const edges = [...new Set(ranges.flatMap(([first, last]) => [first - 1, last + 1]))];
      const times = new Map<number, number>();
      if (edges.length > 0) {
        const rows = await ctx.db.query<{ sequence: number | string; t: number | string }>(
          `SELECT sequence, MIN(recorded_at) AS t FROM locations
           WHERE device_id = ? AND sequence IN (${edges.map(() => '?').join(', ')}) GROUP BY sequence`,
          [device.id, ...edges],
        );
        for (const row of rows) times.set(Number(row.sequence), Number(row.t));
      }
      return {
        gaps: ranges.map(([first, last]) => ({
          first,
          last,
          missing: last - first + 1,
          from: times.get(first - 1) ?? null,
          to: times.get(last + 1) ?? null,
        })),
        truncated: ledger.missingRanges.length > MAX_GAPS,
      };
    },
  );
};
