import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FromSchema } from 'json-schema-to-ts';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import {
  deleteScopedLocations,
  findScopedDevice,
  listScopedDevices,
  queryScopedLocations,
  scopedOrgs,
  scopedStats,
} from '../../store/anchor-reads.js';
import { setDeviceStatus } from '../../store/devices.js';
import { revokeDeviceTokens } from '../../store/refresh-tokens.js';
import { readFilter, readLimit, readScopeOf, type ReadQuery } from './reader.js';
import { anchorDevice, anchorLocation, anchorStats } from './shapes.js';
import {
  ANCHOR_JSON,
  COMPANY_TOKENS_SCHEMA,
  DELETE_DEVICE_SCHEMA,
  DELETE_LOCATIONS_SCHEMA,
  DEVICES_SCHEMA,
  ID_PARAMS,
  LATEST_SCHEMA,
  LOCATIONS_SCHEMA,
  STATS_SCHEMA,
} from './schemas.js';

/**
 * The request of the device handlers, typed from their schemas (DEVICES_SCHEMA, DELETE_DEVICE_SCHEMA):
 * they are exported, for the admin routes that share /api/devices, so they name their type.
 */
type DevicesRequest = FastifyRequest<{ Querystring: ReadQuery }>;
type DeviceRequest = FastifyRequest<{ Querystring: ReadQuery; Params: FromSchema<typeof ID_PARAMS> }>;

/** GET /devices: the anchor's device list (the admin may narrow it to an org with ?company_id=). */
export function anchorDevicesHandler(ctx: AppContext) {
  return async (request: DevicesRequest) => {
    const scope = await readScopeOf(ctx, request);
    const companyId = request.query.company_id;
    const orgId = scope.kind === 'all' && companyId && /^\d+$/.test(companyId) ? Number(companyId) : null;
    return (await listScopedDevices(ctx.db, scope, orgId)).map(anchorDevice);
  };
}

/**
 * DELETE /devices/:id: its records go (those in start_date..end_date when given), the device is
 * marked deleted and its refresh tokens revoked, so its next upload gets 410 and ["stop"]. A device
 * outside the caller's scope is not there for it: 200 with deleted 0, as the anchor answers.
 */
export function anchorDeleteDeviceHandler(ctx: AppContext) {
  return async (request: DeviceRequest) => {
    const scope = await readScopeOf(ctx, request);
    const filter = { ...readFilter(request.query), deviceId: request.params.id };
    const device = await findScopedDevice(ctx.db, scope, request.params.id);
    if (!device) return { success: true, deleted: 0 };
    await ctx.db.transaction(async (tx) => {
      await deleteScopedLocations(tx, scope, filter);
      await setDeviceStatus(tx, device.id, 'deleted');
      await revokeDeviceTokens(tx, device.id, ctx.now());
    });
    return { success: true, deleted: 1 };
  };
}

/**
 * The anchor's read API under a prefix (/api/jwt, /api/site, /api). `withDevices: false` leaves
 * GET /devices and DELETE /devices/:id to the admin routes, which hand anchor callers over to the
 * handlers above (the bare /api paths are shared).
 */
export const anchorReadRoutes: FastifyPluginAsync<{ ctx: AppContext; withDevices: boolean }> = async (
  plain,
  { ctx, withDevices },
) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  app.get('/locations', { schema: LOCATIONS_SCHEMA, ...ANCHOR_JSON }, async (request) => {
    const scope = await readScopeOf(ctx, request);
    const rows = await queryScopedLocations(ctx.db, scope, readFilter(request.query), readLimit(request.query));
    return rows.map(anchorLocation);
  });

  app.get('/locations/latest', { schema: LATEST_SCHEMA, ...ANCHOR_JSON }, async (request) => {
    const scope = await readScopeOf(ctx, request);
    const [row] = await queryScopedLocations(ctx.db, scope, readFilter(request.query), 1);
    return row ? anchorLocation(row) : {};
  });

  // A DELETE may come with a body: its caller is checked before it (credential-gate.ts).
  const scoped = { credential: (request: FastifyRequest) => readScopeOf(ctx, request) };
  app.delete('/locations', { schema: DELETE_LOCATIONS_SCHEMA, ...ANCHOR_JSON, config: scoped }, async (request) => {
    const scope = await readScopeOf(ctx, request);
    const filter = readFilter(request.query);
    if (scope.kind === 'all' && filter.deviceId === null && filter.from === null && filter.to === null) {
      // The anchor refuses this too: the admin deleting every record of every org is never one click.
      throw badRequest('MISSING_CONSTRAINTS', 'Name a device_id or a start_date..end_date range to delete');
    }
    const deleted = await ctx.db.transaction((tx) => deleteScopedLocations(tx, scope, filter));
    return { success: true, deleted };
  });

  app.get('/company_tokens', { schema: COMPANY_TOKENS_SCHEMA, ...ANCHOR_JSON }, async (request) => {
    const scope = await readScopeOf(ctx, request);
    return (await scopedOrgs(ctx.db, scope)).map((org) => ({ id: org.id, company_token: org.name }));
  });

  app.get('/stats', { schema: STATS_SCHEMA, ...ANCHOR_JSON }, async (request) =>
    anchorStats(await scopedStats(ctx.db, await readScopeOf(ctx, request))),
  );

  if (withDevices) {
    app.get('/devices', { schema: DEVICES_SCHEMA, ...ANCHOR_JSON }, anchorDevicesHandler(ctx));
    app.delete(
      '/devices/:id',
      { schema: DELETE_DEVICE_SCHEMA, ...ANCHOR_JSON, config: scoped },
      anchorDeleteDeviceHandler(ctx),
    );
  }
};
