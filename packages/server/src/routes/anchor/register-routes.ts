import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { registrationCredentials } from '../../auth/registration.js';
import { decideRegistration } from '../../auth/registration-policy.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { HttpError } from '../../errors.js';
import { refuseDevice } from '../../ingest/device-policy.js';
import { checkOrgName, deviceInfoIn } from '../../ingest/org-devices.js';
import { checkDeviceId } from '../../ingest/validation.js';
import type { RefreshableToken, TokenPair } from '../../auth/tokens.js';
import { findDevice } from '../../store/devices.js';
import { revokedSince } from '../../store/refresh-tokens.js';
import { createOrgDevice, findOrgDevice } from '../../store/org-devices.js';
import { findOrCreateOrg, findOrg, type OrgRow } from '../../store/orgs.js';
import { accessDenied } from './reader.js';
import type { ServerErrorCode } from '../../error-codes.js';
import { failures } from '../../http/route-schema.js';
import { ANCHOR_JSON, ANCHOR_SECURITY } from './schemas.js';

type Body = Record<string, unknown>;

/** The refresh's body, which has no schema (GET or POST, form, JSON or none): its members if an object. */
const bodyOf = (body: unknown): Body =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * The anchor answers 500 here; Waypost answers 400 with the anchor's words: the request is wrong,
 * and a 5xx would tell a client to try the same request again.
 */
const missing = (code: ServerErrorCode, message: string): HttpError => new HttpError(400, code, message, { message });

const REGISTER_BODY = {
  type: 'object',
  properties: {
    org: { type: 'string', maxLength: 256 },
    uuid: { type: 'string', maxLength: 256 },
    device_id: { type: 'string', maxLength: 256 },
    model: { type: 'string', maxLength: 256 },
    device_model: { type: 'string', maxLength: 256 },
    manufacturer: { type: 'string', maxLength: 256 },
    version: { type: 'string', maxLength: 256 },
    framework: { type: 'string', maxLength: 256 },
    platform: { type: 'string', maxLength: 256 },
  },
} as const;

const TOKENS = {
  description: 'A new token pair',
  type: 'object',
  properties: {
    accessToken: { type: 'string' },
    refreshToken: { type: 'string' },
    expires: { type: 'integer', description: 'When the access token expires, epoch seconds' },
  },
  required: ['accessToken', 'refreshToken', 'expires'],
} as const;

/** Refusals a device meets whatever it asks: its own state, its org's. */
const DEVICE_REFUSALS = ['DEVICE_BLOCKED', 'DEVICE_DELETED', 'BANNED', 'ORG_DELETED', 'RATE_LIMITED'] as const;

/** The registration's request, typed from its body schema (the handler serves three paths). */
type RegisterRequest = FastifyRequest<{ Body: FromSchema<typeof REGISTER_BODY> }>;

const REGISTER_SCHEMA = {
  summary: "Register a device in an org (the anchor's /register): its token pair",
  description: 'A device registered before gets the same device back only with its own access token as Bearer.',
  body: REGISTER_BODY,
  response: {
    200: TOKENS,
    ...failures(
      ...DEVICE_REFUSALS,
      'ORG_MISSING',
      'DEVICE_INFO_MISSING',
      'INVALID_ORG',
      'INVALID_DEVICE_ID',
      'INVALID_BODY',
      'REGISTRATION_CLOSED',
      'REGISTRATION_SECRET_REQUIRED',
    ),
  },
} as const;

const REFRESH_SCHEMA = {
  summary: 'A new token pair for the current (or expired) access token sent as Bearer',
  security: ANCHOR_SECURITY,
  // GET and POST, the body optional (form or JSON): read member by member, so no body schema.
  description:
    "Send the SDK's refresh_token (form or JSON) to rotate it; without one, the access token alone renews the pair.",
  response: {
    200: TOKENS,
    ...failures(...DEVICE_REFUSALS, 'ACCESS_DENIED', 'INVALID_REFRESH_TOKEN', 'REFRESH_TOKEN_REUSED'),
  },
} as const;

const tokensOf = (pair: TokenPair) => ({
  accessToken: pair.accessToken,
  refreshToken: pair.refreshToken,
  expires: pair.expires,
});

/**
 * The device a registration gets. The caller proves it is the device registered before by sending
 * that device's access token (expired or not) as a Bearer header, or is the admin: then it gets the
 * same device. Anyone else gets a device of its own (the uuid, else uuid~2...), never an existing
 * one: registration cannot take a device over, its records, its commands.
 */
async function deviceForRegistration(
  ctx: AppContext,
  tx: Queryable,
  request: FastifyRequest,
  org: OrgRow,
  body: Body,
  uuid: string,
): Promise<string> {
  const credentials = await registrationCredentials(ctx, request);
  const existing = await findOrgDevice(tx, org.id, uuid);
  if (existing !== null) {
    if (credentials.admin) return existing;
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const proof = bearer ? await ctx.tokens.verifyForRefresh(bearer).catch(() => null) : null;
    const owner = proof ? await findDevice(tx, proof.deviceId) : null;
    if (owner && Number(owner.org_id) === org.id && owner.uuid === uuid) return owner.id;
  }
  // A new device: the server's registration policy (open, secret, admin) decides.
  const refusal = decideRegistration(ctx.options.registration, credentials, uuid, false);
  if (refusal) throw refusal;
  return createOrgDevice(tx, org.id, deviceInfoIn(body, uuid), ctx.now());
}

async function verifyRefreshCaller(ctx: AppContext, request: FastifyRequest): Promise<RefreshableToken> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!bearer) throw accessDenied('Authorization Bearer not found');
  const caller = await ctx.tokens.verifyForRefresh(bearer).catch((error: Error) => {
    throw accessDenied(error.message);
  });
  const device = await findDevice(ctx.db, caller.deviceId);
  if (!device) throw accessDenied(`Device ${caller.deviceId} is not registered here`);
  const refusal = refuseDevice(
    caller.deviceId,
    device.status,
    caller.org === null ? null : await findOrg(ctx.db, caller.org),
  );
  if (refusal) throw refusal;
  return caller;
}

/** The anchor's registration and its refresh by Bearer access token. */
export const anchorRegisterRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const register = async (request: RegisterRequest) => {
    // An object: the body schema refuses anything else (INVALID_BODY) before the handler.
    const body = request.body;
    const orgName = text(body.org);
    if (!orgName) throw missing('ORG_MISSING', 'Organization identifier empty');
    const uuid = text(body.uuid) ?? text(body.device_id);
    if (!uuid || !text(body.model ?? body.device_model) || !text(body.manufacturer) || !text(body.version)) {
      throw missing('DEVICE_INFO_MISSING', 'Device info is missing');
    }
    checkOrgName(orgName);
    checkDeviceId(uuid, 'uuid');
    const known = await findOrg(ctx.db, orgName);
    const banned = refuseDevice(uuid, 'active', known);
    if (banned) throw banned;
    const pair = await ctx.db.transaction(async (tx) => {
      const org = known ?? (await findOrCreateOrg(tx, orgName, ctx.now()));
      const deviceId = await deviceForRegistration(ctx, tx, request, org, body, uuid);
      const device = (await findDevice(tx, deviceId))!;
      const refusal = refuseDevice(deviceId, device.status, { name: org.name, status: org.status });
      if (refusal) throw refusal;
      await tx.run(`UPDATE devices SET last_seen = ? WHERE id = ?`, [ctx.now(), deviceId]);
      return ctx.tokens.issue(tx, deviceId, { org: org.name });
    });
    return tokensOf(pair);
  };

  /**
   * The device whose access token (the Bearer header) asks for a refresh, or the refusal: decided
   * from the headers alone, so the credential gate decides it before the body (a memo per request
   * keeps the handler from verifying it twice).
   */
  const checked = new WeakMap<FastifyRequest, Promise<RefreshableToken>>();
  const refreshCaller = (request: FastifyRequest): Promise<RefreshableToken> => {
    let caller = checked.get(request);
    if (!caller) checked.set(request, (caller = verifyRefreshCaller(ctx, request)));
    return caller;
  };

  /**
   * A new pair for the current access token sent as `Authorization: Bearer` (expired is fine, up to
   * the refresh-token lifetime). A refresh token sent along (refresh_token) must be the device's
   * and unused, and is spent: refresh tokens rotate.
   */
  const refresh = async (request: FastifyRequest) => {
    const { deviceId, org, issuedAt, authTime } = await refreshCaller(request);
    const body = bodyOf(request.body);
    const refreshToken = text(body.refresh_token) ?? text(body.refreshToken);
    if (refreshToken === null) {
      // The demo server's way, the access token alone. Its chain keeps its start (authTime), and
      // a revocation of the device's tokens since it was issued (admin, family reuse) ends it.
      if (await revokedSince(ctx.db, deviceId, issuedAt)) {
        throw accessDenied(`The tokens of device ${deviceId} were revoked: register again`);
      }
      return tokensOf(await ctx.db.transaction((tx) => ctx.tokens.issue(tx, deviceId, { org, authTime })));
    }
    // The SDK sends its refresh token too: it is spent, and a replayed one revokes its family.
    const renewed = await ctx.tokens.refresh(ctx.db, refreshToken, org);
    if (renewed.deviceId !== deviceId) {
      throw new HttpError(401, 'INVALID_REFRESH_TOKEN', 'The refresh token belongs to another device: register again');
    }
    return tokensOf(renewed.pair);
  };

  // /api/firebase is the anchor's same API over Firestore; here it is one more alias.
  for (const prefix of ['/api', '/api/jwt', '/api/firebase']) {
    app.post(`${prefix}/register`, { schema: REGISTER_SCHEMA, ...ANCHOR_JSON }, register);
    app.route({
      method: ['GET', 'POST'],
      url: `${prefix}/refresh_token`,
      // The SDK's refresh is form-urlencoded; other clients send JSON.
      config: { accepts: ['application/x-www-form-urlencoded', 'application/json'], credential: refreshCaller },
      schema: REFRESH_SCHEMA,
      ...ANCHOR_JSON,
      handler: refresh,
    });
  }
};
