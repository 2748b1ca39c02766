import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { retentionDaysOf } from '../retention/retention-options.js';
import { findOrg, orgJson, setOrgRetention } from '../store/orgs.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { NAME_PARAMS, SCOPED_GATE_CODES } from './schemas/common.js';
import { ORG, RETENTION, RETENTION_REPORT } from './schemas/accounts.js';

const RETENTION_BODY = {
  type: 'object',
  required: ['days'],
  additionalProperties: false,
  properties: {
    days: { type: ['number', 'null'], description: "Days its devices' data is kept (0: for ever); null: the server's" },
  },
} as const;

/**
 * Retention (issue 33), admin only:
 * - `GET /api/retention`: the server's periods (days per kind; null keeps for ever) and the last pass;
 * - `POST /api/retention/run`: a pass now, answering what it removed (`{ locations, quarantine, logs, events }`);
 * - `PUT /api/orgs/:name/retention {"days": n | null}`: an organization's own period (0 keeps for
 *   ever; null: the server's), for every kind of its devices' data.
 */
export const retentionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = { preHandler: async (request: Parameters<typeof requireAdmin>[1]) => requireAdmin(ctx, request) };
  app.get(
    '/api/retention',
    {
      ...admin,
      config: ACCESS.owner.none,
      schema: {
        summary: "The server's retention periods and its last pass",
        response: { 200: RETENTION, ...failures(...SCOPED_GATE_CODES) },
      },
    },
    async () => {
      const last = ctx.retention.last;
      return {
        days: ctx.options.retention.days,
        batchSize: ctx.options.retention.batchSize,
        intervalMs: ctx.options.retention.intervalMs,
        lastPass: last && { at: new Date(last.at).toISOString(), removed: last.removed },
      };
    },
  );
  app.post(
    '/api/retention/run',
    {
      ...admin,
      config: ACCESS.owner.none,
      schema: {
        summary: 'Runs a retention pass now, answering what it removed',
        response: { 200: RETENTION_REPORT, ...failures(...SCOPED_GATE_CODES) },
      },
    },
    async () => ctx.retention.runNow(),
  );
  app.put(
    '/api/orgs/:name/retention',
    {
      config: ACCESS.owner.none,
      ...admin,
      schema: {
        summary: "Sets an organization's own retention period",
        params: NAME_PARAMS,
        body: RETENTION_BODY,
        response: {
          200: ORG,
          ...failures(...SCOPED_GATE_CODES, 'INVALID_BODY', 'INVALID_OPTION', 'INVALID_PARAMETER', 'UNKNOWN_ORG'),
        },
      },
    },
    async (request) => {
      const { days } = request.body;
      let checked: number | null;
      try {
        checked = days === null ? null : retentionDaysOf('days', days, 0);
      } catch (error) {
        throw new HttpError(400, 'INVALID_PARAMETER', (error as Error).message.replace(/^Option /, ''));
      }
      if (!(await setOrgRetention(ctx.db, request.params.name, checked))) {
        throw new HttpError(404, 'UNKNOWN_ORG', `No org "${request.params.name}" on this server`);
      }
      return orgJson((await findOrg(ctx.db, request.params.name))!);
    },
  );
};
