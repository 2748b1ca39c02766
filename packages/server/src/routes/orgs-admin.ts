import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findOrg, listOrgs, orgJson, setOrgStatus, type OrgStatus } from '../store/orgs.js';
import { deleteOrgData } from '../retention/purge-org.js';
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
  // Deleting an organization removes all its data (issues 33, 41): its devices' and its own
  // settings' (retention/purge-org.ts); the org's name stays, refused (410).
  app.delete<{ Params: { name: string } }>(
    '/api/orgs/:name',
    { preHandler: admin, config: ACCESS.owner.none },
    async (request) => {
      const org = await findOrg(ctx.db, request.params.name);
      if (!org) throw new HttpError(404, 'UNKNOWN_ORG', `No org "${request.params.name}" on this server`);
      const devicesDeleted = await deleteOrgData(ctx, org);
      return { ...orgJson((await findOrg(ctx.db, org.name))!), devicesDeleted };
    },
  );
};
