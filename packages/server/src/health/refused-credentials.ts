import type { FastifyRequest } from 'fastify';
import { bearerOf, type Principal } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { formatHealthHeader } from '@waypost/sdk/internal';
import { healthReportOf, nameAndRecord } from './health-service.js';

/** A device's refused requests are written down at most once per this interval. */
export const REFUSED_NOTE_EVERY_MS = 60_000;
/** Often enough that a device still trying never looks as if it stopped (silentAfterSeconds). */
const noteEveryMs = (ctx: AppContext) => Math.min(REFUSED_NOTE_EVERY_MS, ctx.options.fleet.silentAfterMs / 2);

/**
 * An upload whose device token was refused (issue 31): revoked (issued before the device's tokens
 * were revoked) or expired. Without this, the 401 came before anything was read, and a device
 * whose token an operator revoked looked merely silent.
 *
 * What is kept is the server's own observation, "a request with device X's refused credentials
 * arrived at T" (auth_refused_at/since/code), and, beside it, the health report that request
 * carried, marked as the refused request's. Trust: the token's signature is checked (ours, for
 * device X) before anything is written, so a caller without a token, or with a forged one, writes
 * nothing, and no device is ever created. Whoever holds X's old token (a leaked copy, say) can
 * only make the server say "X's refused credentials were used", which is true and worth an
 * operator's eye; it ends with X's next accepted upload, it never moves X's last-seen time, its
 * records, ledger or commands, and the report is shown as what that refused request said, nothing
 * more. Writes are bounded: once per device per REFUSED_NOTE_EVERY_MS (or half the silence threshold), a report of at most 512
 * characters, only for a device that exists and is active.
 */
export async function noteRefusedCredentials(
  ctx: AppContext,
  request: FastifyRequest,
  deviceId: string,
  code: 'TOKEN_REVOKED' | 'TOKEN_EXPIRED' | 'KEY_REVOKED',
): Promise<void> {
  const now = ctx.now();
  const report = healthReportOf(request);
  const written = await ctx.db.run(
    `UPDATE devices SET
       auth_refused_since = CASE WHEN auth_refused_at IS NULL OR auth_refused_at < COALESCE(last_seen, 0) OR refused_cause IS NOT NULL THEN ? ELSE auth_refused_since END,
       auth_refused_at = ?, auth_refused_code = ?, auth_refused_report = ?, refused_cause = NULL
     WHERE id = ? AND status = 'active'
       AND (auth_refused_at IS NULL OR auth_refused_at <= ? OR auth_refused_at < COALESCE(last_seen, 0) OR refused_cause IS NOT NULL)`,
    [now, now, code, report === null ? null : formatHealthHeader(report), deviceId, now - noteEveryMs(ctx)],
  );
  if (written > 0) await nameAndRecord(ctx, deviceId);
}

/**
 * Refuses an upload by a device token issued before the device's tokens were revoked (401
 * TOKEN_REVOKED, noted first), for an active device: a blocked or deleted one is refused by ingest. One indexed read per token upload; anonymous uploads pay nothing.
 */
export async function refuseRevokedToken(ctx: AppContext, request: FastifyRequest, principal: Principal) {
  if (principal.kind !== 'device' || principal.issuedAt === undefined) return;
  const rows = await ctx.db.query<{ revoked: number | null; status: string }>(
    `SELECT tokens_revoked_at AS revoked, status FROM devices WHERE id = ?`,
    [principal.deviceId],
  );
  const revoked = rows[0]?.revoked;
  if (revoked === null || revoked === undefined || Number(revoked) < principal.issuedAt) return;
  // A deleted or blocked device gets its own answer from ingest (410/403 with ["stop"]): the SDK stops.
  if (rows[0]!.status !== 'active') return;
  await noteRefusedCredentials(ctx, request, principal.deviceId, 'TOKEN_REVOKED');
  throw new HttpError(
    401,
    'TOKEN_REVOKED',
    "This device's tokens were revoked on this server: register again (POST /auth/register)",
  );
}

/**
 * An upload refused because its device token expired: when the token is authentic (our signature,
 * a device's, younger than the refresh lifetime), the refusal is noted for that device.
 */
export async function noteExpiredToken(ctx: AppContext, request: FastifyRequest, error: unknown): Promise<void> {
  if (!(error instanceof HttpError) || error.code !== 'TOKEN_EXPIRED') return;
  const token = bearerOf(request);
  if (token === null) return;
  const authentic = await ctx.tokens.verifyForRefresh(token).catch(() => null);
  if (authentic) await noteRefusedCredentials(ctx, request, authentic.deviceId, 'TOKEN_EXPIRED');
}
