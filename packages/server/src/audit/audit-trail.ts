import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, type Principal } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { findUser } from '../store/users.js';
import { userFieldsOf } from './audit-fields.js';
import { appendAudit } from './audit-store.js';
import { auditDetail, auditTarget } from './redact.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the audit trail names for this request, or null when it is no operator's change. */
    auditActor: string | null;
  }
}

/** Log code of an audit row that could not be written (the change itself stands). */
export const AUDIT_FAILED = 'AUDIT_FAILED';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isLogin = (request: FastifyRequest): boolean => request.routeOptions.config.rateLimitScope === 'login';
/** Who a login that succeeded made the caller: a user (routes/session.ts says which) or the admin. */
const loginActor = (request: FastifyRequest): string => {
  const user = (request as { loggedInAs?: string | null }).loggedInAs;
  return user ? `user:${user}` : 'admin-session';
};

/**
 * Whose change a write is: an operator's (the admin token, an admin dashboard session, the anchor's
 * admin login token, a user's session as `user:<name>`, an org's token) or, for the login routes,
 * anyone who tries. A device's writes (its
 * uploads, logs, registrations, token refreshes) are the data, not changes to the fleet: not kept.
 */
export function actorOf(principal: Principal | null, login: boolean): string | null {
  if (principal?.kind === 'admin') {
    return principal.via === 'secret' ? 'admin-token' : principal.via === 'session' ? 'admin-session' : 'admin-login';
  }
  if (principal?.kind === 'user') return `user:${principal.name}`;
  if (principal?.kind === 'org') return `org:${principal.org}`;
  return login ? 'anonymous' : null;
}

/** The names in a body's user fields (audit-fields.ts) that are existing users' names. */
async function existingUsers(ctx: AppContext, route: string, body: unknown): Promise<(name: string) => boolean> {
  const names = new Set<string>();
  for (const field of userFieldsOf(route)) {
    const value = (body as Record<string, unknown> | null | undefined)?.[field];
    if (typeof value === 'string' && (await findUser(ctx.db, value))) names.add(value);
  }
  return (name) => names.has(name);
}

/** Which answers are kept: changes made (2xx), changes refused (403), and refused logins (401). */
const kept = (status: number, login: boolean): boolean =>
  (status >= 200 && status < 300) || status === 403 || (login && status === 401);

/**
 * The audit trail (issue 33): every write an operator makes through any route, now and added later,
 * is appended to audit_log as it is answered (before the answer leaves), with who, when, from where,
 * what and what audit-fields.ts allows of the body. A hook rather than a line in each route: a new route cannot forget it.
 * The row is written outside the change's transaction: a crash in between loses that row, never the
 * change.
 */
export function registerAuditTrail(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auditActor', null);
  // Before the body, the credential gate (auth/credential-gate.ts) and the role gate
  // (accounts/role-gate.ts): a change refused by either is kept too.
  // Callback hooks, not async ones: no promise for a request that is no operator's change (uploads).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!WRITES.has(request.method) || request.routeOptions.config.ingest === true) return done(null, payload);
    principalOf(ctx, request)
      .catch(() => null)
      .then(
        (principal) => {
          request.auditActor = actorOf(principal, isLogin(request));
          done(null, payload);
        },
        (error: unknown) => done(error as Error),
      );
  });
  // Before the answer is sent: whoever reads the trail after an answer finds its row.
  app.addHook('onSend', (request, reply, payload, done) => {
    const actor = request.auditActor;
    const login = isLogin(request);
    if (actor === null || !kept(reply.statusCode, login)) return done(null, payload);
    auditRow(ctx, request, reply, actor, login).then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  });
}

/** Appends the audit row of an answered change (a failure is logged: the change itself stands). */
async function auditRow(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  actor: string,
  login: boolean,
): Promise<void> {
  const params = request.params as Record<string, unknown> | undefined;
  const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
  const row = async () => ({
    at: ctx.now(),
    // A login that succeeded opened a session: the session is its actor from then on.
    actor: login && reply.statusCode < 300 ? loginActor(request) : actor,
    address: request.ip,
    action: route,
    target: auditTarget(params),
    status: reply.statusCode,
    detail: auditDetail(route, request.body, await existingUsers(ctx, route, request.body)),
  });
  await row()
    .then((entry) => appendAudit(ctx.db, entry))
    .catch((err: unknown) => request.log.error({ code: AUDIT_FAILED, err }, 'audit trail: a row was not written'));
}
