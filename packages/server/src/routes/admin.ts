import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
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
import { failures } from '../http/route-schema.js';
import type { ServerErrorCode } from '../error-codes.js';
import type { FromSchema } from 'json-schema-to-ts';
import { DEVICE_PARAMS, SCOPED_GATE_CODES, refusedAs } from './schemas/common.js';
import {
  ANCHOR_DELETED,
  ANCHOR_DEVICE,
  COMMAND,
  DELETE_DEVICE_QUERY,
  DEVICE,
  DEVICES_QUERY,
} from './schemas/devices.js';

export { DEFAULT_EXPORT_LIMIT, MAX_EXPORT_LIMIT };

type Params = { id: string };
type AnchorDevice = FromSchema<typeof ANCHOR_DEVICE>;
type AnchorDeleted = FromSchema<typeof ANCHOR_DELETED>;
type AnchorRequest = FastifyRequest<{ Querystring: Query; Params: Params }>;

/** A device's answer (a status change, a read): the device, or the codes its route may answer. */
const deviceSchema = (summary: string, ...more: ServerErrorCode[]) =>
  ({
    summary,
    params: DEVICE_PARAMS,
    response: { 200: DEVICE, ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE', ...more) },
  }) as const;
/** A command's body: `{"command": ["setConfig", {...}]}`, `{"command": "stop"}`, or the command alone. */
const COMMAND_BODY = {
  anyOf: [
    {
      type: 'object',
      properties: {
        command: {
          anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: {} }],
          description: 'A command name, or a name followed by its arguments',
        },
      },
    },
    { type: 'string' },
    { type: 'array', items: {} },
  ],
} as const;

/** Whether the caller of a path shared with the anchor's API is one of the anchor's callers. */
async function speaksAnchor(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  const principal = await principalOf(ctx, request).catch(() => null);
  if (principal === null) return false;
  if (principal.kind === 'admin') return principal.via === 'jwt';
  return principal.kind === 'org' || (principal.kind === 'device' && principal.org !== null);
}

/** The admin API under /api: Authorization: Bearer <adminToken>; device tokens get 403. */
export const adminRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  const existing = async (id: string) => {
    const device = await findDevice(ctx.db, id);
    if (!device) throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${id}" on this server`);
    return device;
  };
  const setStatus = (status: DeviceStatus) => async (request: { params: Params }) => {
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
    {
      config: ACCESS.viewer.filtered,
      schema: {
        summary: "The devices the caller may see (the anchor's callers: the anchor's list)",
        querystring: DEVICES_QUERY,
        response: {
          200: { type: 'array', items: { anyOf: [DEVICE, ANCHOR_DEVICE] } },
          ...failures(...SCOPED_GATE_CODES, 'ACCESS_DENIED'),
        },
      },
    },
    async (request) => {
      if (await speaksAnchor(ctx, request)) return (await anchorDevices(request as AnchorRequest)) as AnchorDevice[];
      const reader = await requireAdmin(ctx, request);
      const devices = await devicesInScope(ctx, reader, await listDevices(ctx.db));
      // ?org=acme: one organization's devices (what to export before deleting it, docs/retention.md).
      const orgName = request.query.org;
      if (typeof orgName !== 'string') return devices.map(deviceJson);
      const org = await findOrg(ctx.db, orgName);
      return devices.filter((row) => org !== null && Number(row.org_id) === org.id).map(deviceJson);
    },
  );
  app.get(
    '/api/devices/:id',
    { preHandler: admin, config: ACCESS.viewer.device, schema: deviceSchema('One device') },
    async (request) => deviceJson(await existing(request.params.id)),
  );
  // Deleting a device removes all its data (issue 33); export it first (GET .../locations?format=).
  const markDeleted = setStatus('deleted');
  const deleteDevice = async (request: { params: Params }) => {
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
    {
      config: { ...ACCESS.owner.device, credential: deleteCaller },
      schema: {
        summary: "Deletes a device and all its data (the anchor's callers: its records, as the anchor does)",
        params: DEVICE_PARAMS,
        querystring: DELETE_DEVICE_QUERY,
        response: {
          200: { anyOf: [DEVICE, ANCHOR_DELETED] },
          ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE', 'ACCESS_DENIED'),
        },
      },
    },
    async (request) => {
      if (await speaksAnchor(ctx, request)) return (await anchorDelete(request as AnchorRequest)) as AnchorDeleted;
      await requireAdmin(ctx, request);
      return deleteDevice(request);
    },
  );
  app.post(
    '/api/devices/:id/block',
    {
      preHandler: admin,
      config: ACCESS.operator.device,
      schema: deviceSchema('Blocks a device: its uploads are refused and its tokens revoked'),
    },
    setStatus('blocked'),
  );
  app.post(
    '/api/devices/:id/unblock',
    { preHandler: admin, config: ACCESS.operator.device, schema: deviceSchema('Lets a blocked device upload again') },
    setStatus('active'),
  );
  app.post(
    '/api/devices/:id/tokens/revoke',
    {
      preHandler: admin,
      config: ACCESS.operator.device,
      schema: {
        summary: "Revokes a device's refresh tokens (it registers again)",
        params: DEVICE_PARAMS,
        response: {
          200: {
            type: 'object',
            properties: { revoked: { type: 'integer', description: 'How many tokens were revoked' } },
            required: ['revoked'],
          },
          ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE'),
        },
      },
    },
    async (request) => {
      await existing(request.params.id);
      return { revoked: await revokeDeviceTokens(ctx.db, request.params.id, ctx.now()) };
    },
  );

  await app.register(exportRoutes, { ctx });

  app.post(
    '/api/devices/:id/commands',
    {
      preHandler: admin,
      config: ACCESS.operator.device,
      schema: {
        summary: 'Queues a command for a device (delivered with the answer to its next upload)',
        params: DEVICE_PARAMS,
        body: COMMAND_BODY,
        response: {
          201: COMMAND,
          ...failures(
            ...SCOPED_GATE_CODES,
            'UNKNOWN_DEVICE',
            'INVALID_OPTION',
            'INVALID_COMMAND',
            'UNKNOWN_COMMAND',
            'INVALID_COMMAND_ARGUMENT',
          ),
        },
      },
      schemaErrorFormatter: refusedAs('INVALID_COMMAND'),
    },
    async (request, reply) => {
      const command = parseCommand(request.body);
      await existing(request.params.id);
      const row = await queueCommand(ctx.db, request.params.id, command, ctx.now());
      return reply.code(201).send(commandJson(row));
    },
  );
  app.get(
    '/api/devices/:id/commands',
    {
      preHandler: admin,
      config: ACCESS.viewer.device,
      schema: {
        summary: "A device's commands, queued and delivered",
        params: DEVICE_PARAMS,
        response: { 200: { type: 'array', items: COMMAND }, ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE') },
      },
    },
    async (request) => {
      await existing(request.params.id);
      return (await listCommands(ctx.db, request.params.id)).map(commandJson);
    },
  );
};
