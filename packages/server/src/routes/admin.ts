import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { devicesInScope } from '../accounts/scope-filter.js';
import { principalOf, requireAdmin } from '../auth/principal.js';
import { parseCommand } from '../commands/validate-command.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { commandJson, listCommands, queueCommand } from '../store/commands.js';
import { deviceJson, findDevice, listDevices, setDeviceStatus, type DeviceStatus } from '../store/devices.js';
import { findOrg } from '../store/orgs.js';
import { revokeDeviceTokens } from '../store/refresh-tokens.js';
import { anchorDeleteDeviceHandler, anchorDevicesHandler } from './anchor/read-routes.js';
import { readScopeOf } from './anchor/reader.js';
import { purgeDeviceData } from '../retention/purge-device.js';

import { DEFAULT_EXPORT_LIMIT, MAX_EXPORT_LIMIT } from './limits.js';
import { exportRoutes } from './exports.js';
import { type Query } from './query-params.js';
import { ACCESS } from '../accounts/route-rules.js';

export { DEFAULT_EXPORT_LIMIT, MAX_EXPORT_LIMIT };

type Params = { id: string };
/** Whether the caller of a path shared with the anchor's API is one of the anchor's callers. */
async function speaksAnchor(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  const principal = await principalOf(ctx, request).catch(() => null);
  if (principal === null) return false;
  if (principal.kind === 'admin') return principal.via === 'jwt';
  return principal.kind === 'org' || (principal.kind === 'device' && principal.org !== null);
}

/** The admin API under /api: Authorization: Bearer <adminToken>; device tokens get 403. */
export const adminRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  const existing = async (id: string) => {
    const device = await findDevice(ctx.db, id);
    if (!device) throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${id}" on this server`);
    return device;
  };
  const setStatus = (status: DeviceStatus) => async (request: FastifyRequest<{ Params: Params }>) => {
    await existing(request.params.id);
    await ctx.db.transaction(async (tx) => {
      await setDeviceStatus(tx, request.params.id, status);
      if (status !== 'active') await revokeDeviceTokens(tx, request.params.id, ctx.now());
    });
    return deviceJson((await existing(request.params.id))!);
  };

  // Shared with the anchor's API: its callers (an org's token, a device registered through an org,
  // the admin's login token) get the anchor's answer; the admin token gets Waypost's.
  const anchorDevices = anchorDevicesHandler(ctx);
  const anchorDelete = anchorDeleteDeviceHandler(ctx);
  app.get(
    '/api/devices',
    { config: ACCESS.viewer.filtered },
    async (request: FastifyRequest<{ Querystring: Query; Params: Params }>) => {
      if (await speaksAnchor(ctx, request)) return anchorDevices(request);
      const reader = await requireAdmin(ctx, request);
      const devices = await devicesInScope(ctx, reader, await listDevices(ctx.db));
      // ?org=acme: one organization's devices (what to export before deleting it, docs/retention.md).
      const orgName = request.query.org;
      if (typeof orgName !== 'string') return devices.map(deviceJson);
      const org = await findOrg(ctx.db, orgName);
      return devices.filter((row) => org !== null && Number(row.org_id) === org.id).map(deviceJson);
    },
  );
  app.get<{ Params: Params }>(
    '/api/devices/:id',
    { preHandler: admin, config: ACCESS.viewer.device },
    async (request) => deviceJson(await existing(request.params.id)),
  );
  // Deleting a device removes all its data (issue 33); export it first (GET .../locations?format=).
  const markDeleted = setStatus('deleted');
  const deleteDevice = async (request: FastifyRequest<{ Params: Params }>) => {
    await markDeleted(request);
    await purgeDeviceData(ctx.db, request.params.id, ctx.options.retention.batchSize);
    return deviceJson((await existing(request.params.id))!);
  };
  // Shared with the anchor's API: its callers (org tokens) are checked by its rule, also when the
  // credential gate checks before a body (the role rule alone would refuse them 403).
  const deleteCaller = async (request: FastifyRequest) =>
    (await speaksAnchor(ctx, request)) ? readScopeOf(ctx, request) : requireAdmin(ctx, request);
  app.delete(
    '/api/devices/:id',
    { config: { ...ACCESS.owner.device, credential: deleteCaller } },
    async (request: FastifyRequest<{ Querystring: Query; Params: Params }>) => {
      if (await speaksAnchor(ctx, request)) return anchorDelete(request);
      await requireAdmin(ctx, request);
      return deleteDevice(request);
    },
  );
  app.post<{ Params: Params }>(
    '/api/devices/:id/block',
    { preHandler: admin, config: ACCESS.operator.device },
    setStatus('blocked'),
  );
  app.post<{ Params: Params }>(
    '/api/devices/:id/unblock',
    { preHandler: admin, config: ACCESS.operator.device },
    setStatus('active'),
  );
  app.post<{ Params: Params }>(
    '/api/devices/:id/tokens/revoke',
    { preHandler: admin, config: ACCESS.operator.device },
    async (request) => {
      await existing(request.params.id);
      return { revoked: await revokeDeviceTokens(ctx.db, request.params.id, ctx.now()) };
    },
  );

  await app.register(exportRoutes, { ctx });

  app.post<{ Params: Params }>(
    '/api/devices/:id/commands',
    { preHandler: admin, config: ACCESS.operator.device },
    async (request, reply) => {
      const command = parseCommand(request.body);
      await existing(request.params.id);
      const row = await queueCommand(ctx.db, request.params.id, command, ctx.now());
      return reply.code(201).send(commandJson(row));
    },
  );
  app.get<{ Params: Params }>(
    '/api/devices/:id/commands',
    { preHandler: admin, config: ACCESS.viewer.device },
    async (request) => {
      await existing(request.params.id);
      return (await listCommands(ctx.db, request.params.id)).map(commandJson);
    },
  );
};
