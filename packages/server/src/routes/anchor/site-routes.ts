import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { principalOf } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { findOrg } from '../../store/orgs.js';
import { failures, text as textParam } from '../../http/route-schema.js';
import { ANCHOR_JSON, ANCHOR_SECURITY, orgRefusal } from './schemas.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const LOGIN_BODY = {
  type: 'object',
  properties: { login: { type: 'string', maxLength: 256 }, password: { type: 'string', maxLength: 1024 } },
} as const;
const ORG_BODY = { type: 'object', properties: { org: { type: 'string', maxLength: 256 } } } as const;

const bearer = <More extends Record<string, unknown>>(description: string, more: More) =>
  ({
    description,
    type: 'object',
    properties: { access_token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, ...more },
  }) as const;

const AUTH_SCHEMA = {
  summary: "The anchor dashboard's login: the admin token as password, a read token for everything",
  body: LOGIN_BODY,
  response: {
    200: bearer('A read token for every org', { org: { type: ['string', 'null'] } }),
    401: orgRefusal('`LOGIN_FAILED`'),
    ...failures('RATE_LIMITED'),
  },
} as const;

const JWT_SCHEMA = {
  summary: "An org's read token, for the admin to hand to the org's people",
  security: ANCHOR_SECURITY,
  body: ORG_BODY,
  response: {
    200: bearer("The org's read token", {
      org: { type: 'string' },
      isAdmin: { type: 'boolean' },
      expires: { type: 'integer', description: 'Epoch seconds' },
    }),
    401: orgRefusal('`ADMIN_TOKEN_REQUIRED`, `UNKNOWN_ORG`'),
  },
} as const;

const TEMPLATE_SCHEMA = {
  summary: 'A sink for trying a locationTemplate out: nothing is stored',
  body: { description: 'Whatever the template renders' },
  response: {
    200: {
      description: 'Taken (and asked to come back in 5 s, as the anchor does)',
      headers: { 'retry-after': textParam('5') },
      type: 'object',
      properties: { success: { type: 'boolean' } },
    },
  },
} as const;

const CONFIGURE_SCHEMA = {
  summary: "The anchor's fixed OAuth-shaped answer, for trying a client's token parsing (authorizes nothing)",
  response: {
    200: bearer('A fixed token set', {
      expires_in: { type: 'integer' },
      refresh_token: { type: 'string' },
      scope: { type: 'string' },
    }),
  },
} as const;

/**
 * The anchor's site API besides its uploads and reads: its dashboard's login (/auth), its org
 * tokens (/jwt), and two stubs SDK developers test against (/locations_template, /configure).
 */
export const anchorSiteRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  /** The admin's login: the password is the server's admin token; the answer a read token for everything. */
  app.post(
    '/api/site/auth',
    { schema: AUTH_SCHEMA, ...ANCHOR_JSON, config: { rateLimitScope: 'login' } },
    async (request, reply) => {
      // An object: the body schema refuses anything else (INVALID_BODY) before the handler.
      const { login, password } = request.body;
      const org = text(login);
      if (typeof password === 'string' && sameSecret(password, ctx.options.adminToken)) {
        const { accessToken } = await ctx.tokens.issueScoped('admin', null);
        return { access_token: accessToken, token_type: 'Bearer', org };
      }
      return reply.code(401).send({ org, error: 'Await not public account and right password', code: 'LOGIN_FAILED' });
    },
  );

  /**
   * An org's read token. The anchor hands it to anyone who names the org; Waypost to the admin
   * only (admin token or login token), who passes it to the org's people.
   */
  const adminOnly = async (request: FastifyRequest) => {
    const caller = await principalOf(ctx, request).catch(() => null);
    if (caller?.kind !== 'admin') {
      throw new HttpError(
        401,
        'ADMIN_TOKEN_REQUIRED',
        'An org token is issued to the admin only (Authorization: Bearer <adminToken>)',
      );
    }
  };
  // The caller is checked before the body (credential-gate.ts): nobody's body is read.
  const jwtRoute = { schema: JWT_SCHEMA, ...ANCHOR_JSON, config: { credential: adminOnly } };
  app.post('/api/site/jwt', jwtRoute, async (request, reply) => {
    await adminOnly(request);
    const org = text(request.body.org);
    const row = org === null ? null : await findOrg(ctx.db, org);
    if (!row) return reply.code(401).send({ org, error: 'Org not found', code: 'UNKNOWN_ORG' });
    const { accessToken, expires } = await ctx.tokens.issueScoped('org', row.name);
    return { access_token: accessToken, token_type: 'Bearer', org: row.name, isAdmin: false, expires };
  });

  /** A sink for trying locationTemplate out: the anchor stores nothing and asks to retry in 5 s. */
  app.post('/api/site/locations_template', { schema: TEMPLATE_SCHEMA, ...ANCHOR_JSON }, async (_request, reply) => {
    reply.header('Retry-After', '5');
    return { success: true };
  });

  /**
   * The anchor's fixed OAuth-shaped answer, for trying a client's token parsing. These tokens
   * authorize nothing on this server.
   */
  app.post('/api/site/configure', { schema: CONFIGURE_SCHEMA, ...ANCHOR_JSON }, async () => ({
    access_token: 'e7ebae5e-4bea-4d63-8f28-8a104acd2f4c',
    token_type: 'Bearer',
    expires_in: 3600,
    refresh_token: '2a69e1cd-d7db-44f6-87fc-3d66c4505ee4',
    scope: 'openid+email+profile+phone+address+group',
  }));
};
