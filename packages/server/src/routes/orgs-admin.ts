import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findOrg, listOrgs, orgJson, setOrgStatus, type OrgStatus } from '../store/orgs.js';
import { purgeDeviceData } from '../retention/purge-device.js';
import { revokeDeviceTokens } from '../store/refresh-tokens.js';
import { ACCESS } from '../accounts/route-rules.js';

type Request = FastifyRequest<{ Params: { name: string } }>;

/**
 * The admin's view of organizations. Banning one makes every upload, registration and refresh of
 * its devices answer 403 with the stop commands (the anchor's DENIED_COMPANY_TOKENS, at run time).
 */
export const orgAdminRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  app.get('/api/orgs', { preHandler: admin, config: ACCESS.owner.none }, async () =>
    (await listOrgs(ctx.db)).map(orgJson),
  );
  const setStatus = (status: OrgStatus) => async (request: Request) => {
    if (!(await setOrgStatus(ctx.db, request.params.name, status))) {
      throw new HttpError(404, 'UNKNOWN_ORG', `No org "${request.params.name}" on this server`);
    }
    return orgJson((await findOrg(ctx.db, request.params.name))!);
  };
  app.post<{ Params: { name: string } }>(
    '/api/orgs/:name/ban',
    { preHandler: admin, config: ACCESS.owner.none },
    setStatus('banned'),
  );
  app.post<{ Params: { name: string } }>(
    '/api/orgs/:name/unban',
    { preHandler: admin, config: ACCESS.owner.none },
    setStatus('active'),
  );
  // Deleting an organization removes all its devices' data (issue 33): each device is marked
  // deleted (its next upload gets 410) before its data goes; the org's name stays, refused (410).
  app.delete<{ Params: { name: string } }>(
    '/api/orgs/:name',
    { preHandler: admin, config: ACCESS.owner.none },
    async (request) => {
      const org = await findOrg(ctx.db, request.params.name);
      if (!org) throw new HttpError(404, 'UNKNOWN_ORG', `No org "${request.params.name}" on this server`);
      await setOrgStatus(ctx.db, org.name, 'deleted');
      const devices = await ctx.db.query<{ id: string }>(`SELECT id FROM devices WHERE org_id = ?`, [org.id]);
      for (const { id } of devices) {
        await ctx.db.transaction(async (tx) => {
          await tx.run(`UPDATE devices SET status = 'deleted' WHERE id = ?`, [id]);
          await revokeDeviceTokens(tx, id, ctx.now());
        });
        await purgeDeviceData(ctx.db, id, ctx.options.retention.batchSize);
      }
      return { ...orgJson((await findOrg(ctx.db, org.name))!), devicesDeleted: devices.length };
    },
  );
};
