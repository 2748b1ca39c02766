import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { deleteGroup, listGroups, MAX_GROUP_DEVICES, missingDevices, putGroup } from '../store/device-groups.js';
import { GROUP_NAME_SCHEMA } from './user-schemas.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { DELETED, SCOPED_GATE_CODES } from './schemas/common.js';
import { GROUP } from './schemas/accounts.js';

const PUT_BODY = {
  type: 'object',
  required: ['devices'],
  additionalProperties: false,
  properties: {
    devices: {
      type: 'array',
      maxItems: MAX_GROUP_DEVICES,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
} as const;
const PARAMS = { type: 'object', required: ['name'], properties: { name: GROUP_NAME_SCHEMA } } as const;

const groupJson = (group: { name: string; devices: string[]; createdAt: number }) => ({
  name: group.name,
  devices: group.devices,
  createdAt: new Date(group.createdAt).toISOString(),
});

/**
 * Device groups (issue 33): an owner puts devices in named groups, and a user limited to a group
 * sees its devices only (accounts/scope-filter.ts). A PUT creates the group or replaces its devices;
 * a device of a group is one that exists. Owners only (config.access).
 */
export const groupRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const gate = { preHandler: async (request: FastifyRequest) => void (await requireAdmin(ctx, request)) };

  app.get(
    '/api/groups',
    {
      ...gate,
      config: ACCESS.owner.none,
      schema: {
        summary: 'Every device group',
        response: { 200: { type: 'array', items: GROUP }, ...failures(...SCOPED_GATE_CODES) },
      },
    },
    async () => (await listGroups(ctx.db)).map(groupJson),
  );

  app.put(
    '/api/groups/:name',
    {
      config: ACCESS.owner.none,
      ...gate,
      schema: {
        summary: 'Creates a device group or replaces its devices',
        params: PARAMS,
        body: PUT_BODY,
        response: {
          200: { ...GROUP, description: 'Its devices replaced' },
          201: { ...GROUP, description: 'Created' },
          ...failures(...SCOPED_GATE_CODES, 'INVALID_BODY', 'INVALID_PARAMETER', 'INVALID_OPTION', 'UNKNOWN_DEVICE'),
        },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const missing = await missingDevices(ctx.db, request.body.devices);
      if (missing.length > 0) {
        throw new HttpError(
          404,
          'UNKNOWN_DEVICE',
          `No device "${missing[0]!.slice(0, 200)}" (${missing.length} unknown)`,
        );
      }
      const created = await ctx.db.transaction((tx) => putGroup(tx, name, request.body.devices, ctx.now()));
      const group = (await listGroups(ctx.db)).find((g) => g.name === name)!;
      return reply.code(created ? 201 : 200).send(groupJson(group));
    },
  );

  app.delete(
    '/api/groups/:name',
    {
      config: ACCESS.owner.none,
      ...gate,
      schema: {
        summary: 'Removes a device group (its devices stay)',
        params: PARAMS,
        response: { 200: DELETED, ...failures(...SCOPED_GATE_CODES, 'INVALID_PARAMETER', 'UNKNOWN_GROUP') },
      },
    },
    async (request) => {
      if (!(await ctx.db.transaction((tx) => deleteGroup(tx, request.params.name)))) {
        throw new HttpError(404, 'UNKNOWN_GROUP', `No group "${request.params.name}"`);
      }
      return { deleted: request.params.name };
    },
  );
};
