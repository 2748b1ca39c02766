import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findOrg, listOrgs, orgJson, setOrgStatus, type OrgStatus } from '../store/orgs.js';
import { deleteOrgData } from '../retention/purge-org.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { NAME_PARAMS, SCOPED_GATE_CODES } from './schemas/common.js';
import { DELETED_ORG, ORG } from './schemas/accounts.js';

const orgSchema = (summary: string) =>
  ({ summary, params: NAME_PARAMS, response: { 200: ORG, ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_ORG') } }) as const;

/**
 * The admin's view of organizations. Banning one makes every upload, registration and refresh of
 * its devices answer 403 with the stop commands (the anchor's DENIED_COMPANY_TOKENS, at run time).
 */
export const orgAdminRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  app.get(
    '/api/orgs',
    {
      preHandler: admin,
      config: ACCESS.owner.none,
      schema: {
        summary: 'Every organization',
        response: { 200: { type: 'array', items: ORG }, ...failures(...SCOPED_GATE_CODES) },
      },
    },
    async () => (await listOrgs(ctx.db)).map(orgJson),
  );
  const setStatus = (status: OrgStatus) => async (request: { params: { name: string } }) => {
    if (!(await setOrgStatus(ctx.db, request.params.name, status))) {
      throw new HttpError(404, 'UNKNOWN_ORG', `No org "${request.params.name}" on this server`);
    }
    return orgJson((await findOrg(ctx.db, request.params.name))!);
  };
  app.post(
    '/api/orgs/:name/ban',
    {
      preHandler: admin,
      config: ACCESS.owner.none,
      schema: orgSchema("Bans an organization: its devices' uploads, registrations and refreshes are refused"),
    },
    setStatus('banned'),
  );
  app.post(
    '/api/orgs/:name/unban',
    { preHandler: admin, config: ACCESS.owner.none, schema: orgSchema('Lifts the ban on an organization') },
    setStatus('active'),
  );
  // Deleting an organization removes all its data (issues 33, 41): its devices' and its own
  // settings' (retention/purge-org.ts); the org's name stays, refused (410).
  app.delete(
    '/api/orgs/:name',
    {
      preHandler: admin,
      config: ACCESS.owner.none,
      schema: {
        summary: 'Deletes an organization and all its data (its name stays, refused)',
        params: NAME_PARAMS,
        response: { 200: DELETED_ORG, ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_ORG') },
      },
    },
    async (request) => {
      const org = await findOrg(ctx.db, request.params.name);
      if (!org) throw new HttpError(404, 'UNKNOWN_ORG', `No org "${request.params.name}" on this server`);
      const devicesDeleted = await deleteOrgData(ctx, org);
      return { ...orgJson((await findOrg(ctx.db, org.name))!), devicesDeleted };
    },
  );
};
