import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { generateDeviceKey } from '../auth/device-credential.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { checkDeviceId } from '../ingest/validation.js';
import { deviceKeyState, replaceDeviceKey, revokeDeviceKey } from '../store/device-keys.js';
import { createDeviceIfAbsent, findDevice } from '../store/devices.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { DEVICE_PARAMS, SCOPED_GATE_CODES } from './schemas/common.js';

const STATE = {
  type: 'object',
  properties: {
    deviceId: { type: 'string' },
    createdAt: { type: ['string', 'null'], description: 'When the key in force was made; null: none' },
    revokedAt: { type: ['string', 'null'], description: "When the device's last key was revoked" },
  },
  required: ['deviceId', 'createdAt', 'revokedAt'],
  additionalProperties: false,
} as const;

const CREATED = {
  type: 'object',
  properties: {
    deviceId: { type: 'string' },
    key: { type: 'string', description: 'The device key: shown this once, the server keeps only its hash' },
    createdAt: { type: 'string' },
  },
  required: ['deviceId', 'key', 'createdAt'],
  additionalProperties: false,
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Device keys (issue 40), for trackers that cannot refresh a token: the operator makes one (a
 * second POST rotates: the old key stops at once), the answer shows it once, and DELETE revokes it.
 * The key is made by the server and never sent to it in a body, so the audit trail (which keeps
 * who, when and the device) never holds it. Making a key for an id not yet seen creates the device,
 * so a tracker can be set up before its first upload on a server that requires credentials.
 */
export const deviceKeyRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  const existing = async (id: string) => {
    if (!(await findDevice(ctx.db, id))) throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${id}" on this server`);
  };

  app.get(
    '/api/devices/:id/key',
    {
      config: ACCESS.viewer.device,
      preHandler: admin,
      schema: {
        summary: 'Whether a device holds a key, and since when (never the key itself)',
        params: DEVICE_PARAMS,
        response: { 200: STATE, ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE') },
      },
    },
    async (request) => {
      await existing(request.params.id);
      const state = await deviceKeyState(ctx.db, request.params.id);
      return { deviceId: request.params.id, createdAt: iso(state.createdAt), revokedAt: iso(state.revokedAt) };
    },
  );

  app.post(
    '/api/devices/:id/key',
    {
      config: ACCESS.operator.device,
      preHandler: admin,
      schema: {
        summary: 'Makes a device key (a second one replaces the first at once); shown in this answer only',
        params: DEVICE_PARAMS,
        response: {
          201: {
            ...CREATED,
            description: 'The key, shown in this answer only',
            headers: { 'cache-control': { type: 'string', description: 'no-store: no cache keeps the key' } },
          },
          ...failures(...SCOPED_GATE_CODES, 'INVALID_DEVICE_ID', 'DEVICE_DELETED'),
        },
      },
    },
    async (request, reply) => {
      const deviceId = checkDeviceId(request.params.id, 'The device id');
      const { key, hash } = generateDeviceKey();
      const now = ctx.now();
      await ctx.db.transaction(async (tx) => {
        const { status } = await createDeviceIfAbsent(tx, deviceId, null, now);
        if (status === 'deleted') {
          throw new HttpError(410, 'DEVICE_DELETED', `Device ${deviceId} was deleted on this server`);
        }
        await replaceDeviceKey(tx, deviceId, hash, now);
      });
      // A secret in the answer: no cache along the way keeps it.
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ deviceId, key, createdAt: new Date(now).toISOString() });
    },
  );

  app.delete(
    '/api/devices/:id/key',
    {
      config: ACCESS.operator.device,
      preHandler: admin,
      schema: {
        summary: "Revokes a device's key: its uploads with it are refused from now on",
        params: DEVICE_PARAMS,
        response: {
          200: {
            type: 'object',
            properties: { revoked: { type: 'boolean', description: 'False: it held no key in force' } },
            required: ['revoked'],
          },
          ...failures(...SCOPED_GATE_CODES, 'UNKNOWN_DEVICE'),
        },
      },
    },
    async (request) => {
      await existing(request.params.id);
      return { revoked: await revokeDeviceKey(ctx.db, request.params.id, ctx.now()) };
    },
  );
};
