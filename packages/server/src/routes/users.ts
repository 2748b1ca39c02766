import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { hashPassword, verifyPassword } from '../accounts/password.js';
import { roleAllows } from '../accounts/roles.js';
import { requireAdmin } from '../auth/principal.js';
import { sessionIdHashOf } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { deleteUserSessions } from '../store/sessions.js';
import { deleteUser, findUser, insertUser, listUsers, updateUser, userJson } from '../store/users.js';
import { GROUPS_SCHEMA, ORGS_SCHEMA, PASSWORD_SCHEMA, ROLE_SCHEMA, USER_NAME_SCHEMA } from './user-schemas.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { GATE_CODES, NAME_PARAMS, SCOPED_GATE_CODES } from './schemas/common.js';
import { CHANGED_USER, DELETED_USER, USER } from './schemas/accounts.js';

const CREATE_BODY = {
  type: 'object',
  required: ['name', 'password', 'role'],
  additionalProperties: false,
  properties: {
    name: USER_NAME_SCHEMA,
    password: PASSWORD_SCHEMA,
    role: ROLE_SCHEMA,
    orgs: ORGS_SCHEMA,
    groups: GROUPS_SCHEMA,
  },
} as const;
const CHANGE_BODY = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: { password: PASSWORD_SCHEMA, role: ROLE_SCHEMA, orgs: ORGS_SCHEMA, groups: GROUPS_SCHEMA },
} as const;
const OWN_PASSWORD_BODY = {
  type: 'object',
  required: ['current', 'password'],
  additionalProperties: false,
  properties: { current: { type: 'string', minLength: 1, maxLength: 1024 }, password: PASSWORD_SCHEMA },
} as const;

/** An owner's routes: the gate's codes (a limited user's 404 among them). */
const OWNER_CODES = SCOPED_GATE_CODES;

const unknownUser = (name: string): HttpError => new HttpError(404, 'UNKNOWN_USER', `No user "${name}"`);

/**
 * Users (issue 33), managed by an owner (or the admin token): create, list, change role, orgs or
 * password, delete. A change that takes anything away (removal, a lower role, other orgs, a
 * password reset) ends the user's sessions at once.
 */
export const userRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const gate = { preHandler: async (request: FastifyRequest) => void (await requireAdmin(ctx, request)) };

  app.get(
    '/api/users',
    {
      ...gate,
      config: ACCESS.owner.none,
      schema: {
        summary: 'Every user, with their role and scope',
        response: { 200: { type: 'array', items: USER }, ...failures(...OWNER_CODES) },
      },
    },
    async () => (await listUsers(ctx.db)).map(userJson),
  );

  app.post(
    '/api/users',
    {
      config: ACCESS.owner.none,
      ...gate,
      schema: {
        summary: 'Adds a user',
        body: CREATE_BODY,
        response: { 201: USER, ...failures(...OWNER_CODES, 'INVALID_BODY', 'INVALID_OPTION', 'USER_EXISTS') },
      },
    },
    async (request, reply) => {
      const { name, password, role, orgs = null, groups = null } = request.body;
      const created = await insertUser(ctx.db, {
        name,
        password_hash: await hashPassword(password),
        role,
        orgs,
        groups,
        created_at: ctx.now(),
      });
      if (!created) throw new HttpError(409, 'USER_EXISTS', `A user "${name}" exists already`);
      return reply.code(201).send(userJson((await findUser(ctx.db, name))!));
    },
  );

  app.patch(
    '/api/users/:name',
    {
      config: ACCESS.owner.none,
      ...gate,
      schema: {
        summary:
          "Changes a user's password, role, orgs or groups (a change that takes anything away ends their sessions)",
        params: NAME_PARAMS,
        body: CHANGE_BODY,
        response: {
          200: CHANGED_USER,
          ...failures(...OWNER_CODES, 'INVALID_BODY', 'INVALID_OPTION', 'UNKNOWN_USER'),
        },
      },
    },
    async (request) => {
      const before = await findUser(ctx.db, request.params.name);
      if (!before) throw unknownUser(request.params.name);
      const { password, role, orgs, groups } = request.body;
      await updateUser(
        ctx.db,
        before.name,
        { role, orgs, groups, password_hash: password === undefined ? undefined : await hashPassword(password) },
        ctx.now(),
      );
      const demoted = role !== undefined && !roleAllows(role, before.role);
      const rescoped =
        (orgs !== undefined && JSON.stringify(orgs) !== JSON.stringify(before.orgs)) ||
        (groups !== undefined && JSON.stringify(groups) !== JSON.stringify(before.groups));
      const ended = demoted || rescoped || password !== undefined ? await deleteUserSessions(ctx.db, before.name) : 0;
      return { ...userJson((await findUser(ctx.db, before.name))!), sessionsEnded: ended };
    },
  );

  app.delete(
    '/api/users/:name',
    {
      ...gate,
      config: ACCESS.owner.none,
      schema: {
        summary: 'Removes a user and ends their sessions',
        params: NAME_PARAMS,
        response: { 200: DELETED_USER, ...failures(...OWNER_CODES, 'UNKNOWN_USER') },
      },
    },
    async (request) => {
      if (!(await deleteUser(ctx.db, request.params.name))) throw unknownUser(request.params.name);
      return { deleted: request.params.name, sessionsEnded: await deleteUserSessions(ctx.db, request.params.name) };
    },
  );

  // A user's own password: the current one proves it is them (not a left-open dashboard); their
  // other sessions end, this one stays.
  app.post(
    '/api/users/me/password',
    {
      config: ACCESS.viewer.self,
      ...gate,
      schema: {
        summary: "Changes the caller's own password (their other sessions end)",
        body: OWN_PASSWORD_BODY,
        response: {
          204: { type: 'null', description: 'Changed' },
          ...failures(...GATE_CODES, 'INVALID_BODY', 'INVALID_OPTION', 'NOT_A_USER', 'WRONG_PASSWORD'),
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(ctx, request);
      if (caller.kind !== 'user') {
        throw new HttpError(
          400,
          'NOT_A_USER',
          'The admin token has no password: change a user by PATCH /api/users/:name',
        );
      }
      ctx.rateLimiter.take('account', caller.name.toLowerCase());
      const user = await findUser(ctx.db, caller.name);
      if (!user || !(await verifyPassword(request.body.current, user.password_hash))) {
        throw new HttpError(403, 'WRONG_PASSWORD', 'The current password is not right');
      }
      await updateUser(ctx.db, user.name, { password_hash: await hashPassword(request.body.password) }, ctx.now());
      await deleteUserSessions(ctx.db, user.name, sessionIdHashOf(request));
      return reply.code(204).send(null);
    },
  );
};
