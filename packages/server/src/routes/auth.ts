import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { registerDevice } from '../auth/registration.js';
import { hashToken } from '../auth/tokens.js';
import { deviceIdIn } from '../ingest/extract.js';
import { checkDeviceId, checkText } from '../ingest/validation.js';
import { findDevice } from '../store/devices.js';
import { revokeRefreshToken } from '../store/refresh-tokens.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import { failures, nullWhenEmpty, text } from '../http/route-schema.js';
import { REGISTRATION_SECRET_HEADER } from '../auth/registration.js';

type Body = Record<string, unknown>;

function refreshTokenIn(body: Body): string {
  const token = body.refresh_token ?? body.refreshToken;
  if (typeof token !== 'string' || token === '') {
    throw badRequest('MISSING_REFRESH_TOKEN', 'Send refresh_token (form-urlencoded or JSON)');
  }
  return token;
}

const REGISTER_REPLY = {
  200: {
    description: "The device's id and its first token pair",
    type: 'object',
    properties: {
      deviceId: { type: 'string' },
      accessToken: { type: 'string' },
      refreshToken: { type: 'string' },
      expires: { type: 'integer', description: 'When the access token expires, epoch seconds' },
    },
    required: ['deviceId', 'accessToken', 'refreshToken', 'expires'],
  },
  ...failures(
    'REGISTRATION_CLOSED',
    'REGISTRATION_SECRET_REQUIRED',
    'DEVICE_EXISTS',
    'INVALID_DEVICE_ID',
    'TEXT_TOO_LONG',
    'INVALID_TYPE',
    'DEVICE_BLOCKED',
    'DEVICE_DELETED',
    'MALFORMED_JSON',
    'INVALID_BODY',
    'RATE_LIMITED',
  ),
} as const;

/** Bodies are JSON or a form, or none at all (a bare registration); read member by member. */
const REGISTER_SCHEMA = {
  summary: 'Register a device: its id and a token pair (docs/server.md, registration policy)',
  body: {
    type: ['object', 'null'],
    description: "Everything sent is kept as the device's info",
    properties: {
      device_id: { description: 'The device id to register (else uuid, device.uuid, or a new one)' },
      uuid: { description: 'The device id, when device_id is not given' },
      model: { description: "The device's model" },
      name: { description: "The device's given name (at most 100 characters)" },
      device: { type: ['object', 'string'], description: "The commercial SDK's device object {uuid, model, name}" },
    },
  },
  headers: {
    type: 'object',
    properties: { [REGISTRATION_SECRET_HEADER]: text('The registration secret, when the server asks for one') },
  },
  response: REGISTER_REPLY,
} as const;

/** A body holding the refresh token, JSON or a form. */
const REFRESH_BODY = {
  type: ['object', 'null'],
  properties: { refresh_token: text('The refresh token'), refreshToken: text('The same, camel-cased') },
} as const;

const REFRESH_REPLY = {
  200: {
    description: 'The new token pair (the refresh token sent is spent)',
    type: 'object',
    properties: {
      access_token: { type: 'string' },
      refresh_token: { type: 'string' },
      expires_at: { type: 'integer' },
      expires_in: { type: 'integer' },
      token_type: { type: 'string' },
    },
    required: ['access_token', 'refresh_token', 'expires_at', 'expires_in', 'token_type'],
  },
  ...failures(
    'MISSING_REFRESH_TOKEN',
    'INVALID_REFRESH_TOKEN',
    'REFRESH_TOKEN_REUSED',
    'DEVICE_NOT_ACTIVE',
    'MALFORMED_JSON',
    'INVALID_BODY',
    'RATE_LIMITED',
  ),
} as const;

/** A device's given name: a label, bounded like the tracker page's input. */
const MAX_NAME_LENGTH = 100;

const REVOKE_REPLY = {
  200: {
    description: 'Whether a live refresh token was revoked',
    type: 'object',
    properties: { revoked: { type: 'boolean' } },
    required: ['revoked'],
  },
  ...failures('MISSING_REFRESH_TOKEN', 'MALFORMED_JSON', 'INVALID_BODY', 'RATE_LIMITED'),
} as const;

/**
 * Device registration and token refresh, the way the SDK's authorization config sends them. Their
 * bodies (JSON or form, or none at all for a bare registration) are checked member by member in the
 * handlers, for stable error codes; the replies have schemas.
 */
export const authRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  declarePublicFamily(app, 'device credentials: registration and its tokens');
  app.post('/auth/register', { schema: REGISTER_SCHEMA, preValidation: nullWhenEmpty }, async (request) => {
    // No body at all is null (nullWhenEmpty); the schema lets through only an object besides.
    const body = request.body ?? {};
    const deviceId =
      deviceIdIn(body) ?? (body.uuid === undefined ? globalThis.crypto.randomUUID() : checkDeviceId(body.uuid, 'uuid'));
    const device = body.device && typeof body.device === 'object' ? body.device : {};
    const model = checkText(body.model ?? device.model, 'model');
    const name = checkText(body.name ?? device.name, 'name', MAX_NAME_LENGTH);
    const pair = await registerDevice(ctx, request, { deviceId, model, name, info: body });
    return { deviceId, accessToken: pair.accessToken, refreshToken: pair.refreshToken, expires: pair.expires };
  });

  app.post(
    '/auth/refresh',
    {
      schema: {
        summary: 'A new token pair for a refresh token (rotated)',
        body: REFRESH_BODY,
        response: REFRESH_REPLY,
      },
      preValidation: nullWhenEmpty,
    },
    async (request) => {
      const { deviceId, pair } = await ctx.tokens.refresh(ctx.db, refreshTokenIn(request.body ?? {}));
      const device = await findDevice(ctx.db, deviceId);
      if (!device || device.status !== 'active') {
        throw new HttpError(
          403,
          'DEVICE_NOT_ACTIVE',
          `Device ${deviceId} is ${device?.status ?? 'unknown'} on this server`,
        );
      }
      return {
        access_token: pair.accessToken,
        refresh_token: pair.refreshToken,
        expires_at: pair.expires,
        expires_in: pair.expiresIn,
        token_type: 'Bearer',
      };
    },
  );

  app.post(
    '/auth/revoke',
    {
      schema: { summary: 'Revoke a refresh token (a device signing out)', body: REFRESH_BODY, response: REVOKE_REPLY },
      preValidation: nullWhenEmpty,
    },
    async (request) => {
      const revoked = await revokeRefreshToken(ctx.db, hashToken(refreshTokenIn(request.body ?? {})), ctx.now());
      return { revoked };
    },
  );
};
