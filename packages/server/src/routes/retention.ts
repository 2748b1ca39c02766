import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { retentionDaysOf } from '../retention/retention-options.js';
import { findOrg, orgJson, setOrgRetention } from '../store/orgs.js';
import { ACCESS } from '../accounts/route-rules.js';

const RETENTION_BODY = {
  type: 'object',
  required: ['days'],
  additionalProperties: false,
  properties: { days: { type: ['number', 'null'] } },
} as const;

/**
 * Retention (issue 33), admin only:
 * - `GET /api/retention`: the server's periods (days per kind; null keeps for ever) and the last pass;
 * - `POST /api/retention/run`: a pass now, answering what it removed (`{ locations, quarantine, logs, events }`);
 * - `PUT /api/orgs/:name/retention {"days": n | null}`: an organization's own period (0 keeps for
 *   ever; null: the server's), for every kind of its devices' data.
 */
export const retentionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const admin = { preHandler: async (request: Parameters<typeof requireAdmin>[1]) => requireAdmin(ctx, request) };
  app.get('/api/retention', { ...admin, config: ACCESS.owner.none }, async () => {
    const last = ctx.retention.last;
    return {
      days: ctx.options.retention.days,
      batchSize: ctx.options.retention.batchSize,
      intervalMs: ctx.options.retention.intervalMs,
      lastPass: last && { at: new Date(last.at).toISOString(), removed: last.removed },
    };
  });
  app.post('/api/retention/run', { ...admin, config: ACCESS.owner.none }, async () => ctx.retention.runNow());
  app.put<{ Params: { name: string }; Body: { days: number | null } }>(
    '/api/orgs/:name/retention',
    { config: ACCESS.owner.none, ...admin, schema: { body: RETENTION_BODY } },
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
