import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findDevice } from '../store/devices.js';
import { readLedger } from '../store/ledger.js';

/**
 * `GET /api/devices/:id/ledger` (admin): the device's delivery ledger (issue 19): `{
 * highestSequence, received, duplicates, quarantined, dropped: { ttl, cap, destroyed }, missing,
 * missingRanges }`, where `missing` counts the sequence numbers of `missingRanges`, neither
 * received, quarantined nor reported dropped.
 */
export const ledgerRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get<{ Params: { id: string } }>(
    '/api/devices/:id/ledger',
    { preHandler: (request) => requireAdmin(ctx, request) },
    async (request) => {
      const device = await findDevice(ctx.db, request.params.id);
      if (!device) throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${request.params.id}" on this server`);
      return readLedger(ctx.db, request.params.id, {
        duplicates: Number(device.duplicates),
        quarantined: Number(device.quarantined ?? 0),
      });
    },
  );
};
