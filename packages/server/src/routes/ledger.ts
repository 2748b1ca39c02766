import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findDevice } from '../store/devices.js';
import { readLedger } from '../store/ledger.js';
import { silentPeriods } from '../health/silent-period.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import type { FromSchema } from 'json-schema-to-ts';
import { DEVICE_PARAMS, SCOPED_GATE_CODES, type DeepReadonly } from './schemas/common.js';
import { LEDGER } from './schemas/device-reads.js';

type LedgerJson = FromSchema<typeof LEDGER>;

/** Silent periods in one ledger answer, newest first. */
const SILENT_PERIODS = 20;

/**
 * `GET /api/devices/:id/ledger` (admin): the device's delivery ledger (issue 19): `{
 * highestSequence, received, duplicates, quarantined, dropped: { ttl, cap, destroyed }, missing,
 * missingRanges, silentPeriods }`, where `silentPeriods` are the device's silences explained once it
 * was back (`{ from, to, state, cause, inferred, text }`, newest first, docs/device-health.md), and `missing` counts the sequence numbers of `missingRanges`, neither
 * received, quarantined nor reported dropped.
 */
export const ledgerRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  app.get(
    '/api/devices/:id/ledger',
    {
      config: ACCESS.viewer.device,
      preHandler: (request) => requireAdmin(ctx, request),
      schema: {
        summary: "A device's delivery ledger: every sequence number received, quarantined, dropped or missing",
        params: DEVICE_PARAMS,
        response: { 200: LEDGER, ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE') },
      },
    },
    async (request) => {
      const device = await findDevice(ctx.db, request.params.id);
      if (!device) throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${request.params.id}" on this server`);
      const ledger = await readLedger(ctx.db, request.params.id, {
        duplicates: Number(device.duplicates),
        quarantined: Number(device.quarantined ?? 0),
      });
      // The timeline beside the numbers: silent periods explained once the device was back (issue 31).
      const answer: DeepReadonly<LedgerJson> = {
        ...ledger,
        silentPeriods: await silentPeriods(ctx.db, request.params.id, SILENT_PERIODS),
      };
      return answer as LedgerJson;
    },
  );
};
