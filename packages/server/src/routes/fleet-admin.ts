import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { isWaypostError } from '@waypost/sdk/internal';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { changeFleetConfig } from '../fleet/config-version.js';
import { deleteGeofence, listGeofences, MAX_GEOFENCES, parseServerGeofence, saveGeofence } from '../store/geofences.js';
import { orgForNew, settingOrgsOf, settingVisible } from '../accounts/fleet-scope.js';
import { failures } from '../http/route-schema.js';
import { GATE_CODES, refusedAs } from './schemas/common.js';
import * as S from './schemas/fleet.js';
import { SERVER_GEOFENCE } from './schemas/geofences.js';
import { sinkRoutes } from './sinks-admin.js';
import { ACCESS } from '../accounts/route-rules.js';

/**
 * The admin API of fleet events (issue 21): server-side geofences here, webhooks (and every sink)
 * with their dead letters in sinks-admin.ts. Authorization: Bearer <adminToken>. Bodies take only
 * the keys they know (anything else is a typo: 400 INVALID_OPTION, http/unknown-keys.ts).
 */
export const fleetRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);

  app.post(
    '/api/geofences',
    {
      preHandler: admin,
      config: ACCESS.operator.filtered,
      schema: {
        summary: 'Adds a geofence evaluated for every device (of its org)',
        body: S.GEOFENCE_BODY,
        response: {
          201: SERVER_GEOFENCE,
          ...failures(
            ...GATE_CODES,
            ...S.ORG_CODES,
            'INVALID_GEOFENCE',
            'TOO_MANY_GEOFENCES',
            'GEOFENCE_TAKEN',
            'FLEET_CONFIG_BUSY',
          ),
        },
      },
      schemaErrorFormatter: refusedAs('INVALID_GEOFENCE'),
    },
    async (request, reply) => {
      const { org: asked, ...fence } = request.body;
      const org = await orgForNew(ctx, await admin(request), asked);
      let geofence;
      try {
        geofence = parseServerGeofence(fence);
      } catch (error) {
        if (isWaypostError(error)) throw badRequest('INVALID_GEOFENCE', error.message);
        throw error;
      }
      const saved = await changeFleetConfig(ctx.db, (tx) => saveGeofence(tx, geofence, ctx.now(), org));
      if (saved === 'full') throw new HttpError(409, 'TOO_MANY_GEOFENCES', `At most ${MAX_GEOFENCES} geofences`);
      // Identifiers are unique per org (issue 41): only the fleet's (or, for a fleet geofence, an
      // org's), evaluated for the same devices, is refused; another org's names are never confirmed.
      if (saved === 'taken')
        throw new HttpError(409, 'GEOFENCE_TAKEN', 'This identifier is in use by a geofence you cannot change');
      await ctx.fleet.configChanged();
      return reply.code(201).send(org === null ? geofence : { ...geofence, org });
    },
  );
  app.get(
    '/api/geofences',
    {
      preHandler: admin,
      config: ACCESS.viewer.filtered,
      schema: {
        summary: 'The geofences the caller may see',
        response: { 200: { type: 'array', items: SERVER_GEOFENCE }, ...failures(...GATE_CODES) },
      },
    },
    async (request) => {
      const orgs = settingOrgsOf(await admin(request));
      return (await listGeofences(ctx.db)).filter((fence) => settingVisible(orgs, fence.org ?? null));
    },
  );
  // Several orgs may name a geofence alike: `?org=` says whose (the caller's only visible one otherwise).
  app.delete(
    '/api/geofences/:identifier',
    {
      preHandler: admin,
      config: ACCESS.operator.filtered,
      schema: {
        summary: 'Removes a geofence',
        params: S.GEOFENCE_PARAMS,
        querystring: S.GEOFENCE_DELETE_QUERY,
        response: {
          200: S.GEOFENCE_DELETED,
          ...failures(...GATE_CODES, 'UNKNOWN_GEOFENCE', 'GEOFENCE_AMBIGUOUS', 'FLEET_CONFIG_BUSY'),
        },
      },
    },
    async (request) => {
      const orgs = settingOrgsOf(await admin(request));
      const { identifier } = request.params;
      const asked = request.query.org;
      const candidates = (await listGeofences(ctx.db)).filter(
        (fence) =>
          fence.identifier === identifier &&
          settingVisible(orgs, fence.org ?? null) &&
          (asked === undefined || fence.org === asked),
      );
      if (candidates.length > 1)
        throw new HttpError(409, 'GEOFENCE_AMBIGUOUS', `Several geofences are named so: say whose with ?org=`);
      const org = candidates[0]?.org ?? null;
      if (!candidates[0] || !(await changeFleetConfig(ctx.db, (tx) => deleteGeofence(tx, identifier, org))))
        throw new HttpError(404, 'UNKNOWN_GEOFENCE', `No geofence "${identifier.slice(0, 256)}"`);
      await ctx.fleet.configChanged();
      return { deleted: identifier, ...(org === null ? {} : { org }) };
    },
  );

  await app.register(sinkRoutes, { ctx });
};
