import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { liveScopeOf } from '../accounts/scope-filter.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { NamedState } from '../health/decide-state.js';
import { deviceHealth, fleetHealth } from '../health/health-service.js';
import { healthHistory } from '../health/health-store.js';
import { isoOrNull } from '../iso-time.js';
import { ACCESS } from '../accounts/route-rules.js';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { DEVICE_HEALTH_SCHEMA, FLEET_HEALTH_SCHEMA } from './health-schema.js';

/** History entries in one answer. */
const HISTORY_LIMIT = 50;

/** A health report as the schema types it: an object of the SDK's members (docs/device-health.md). */
const asJson = (report: object | null) => report as Record<string, unknown> | null;

const iso = (ms: number | null) => (ms === null ? null : isoOrNull(ms));
const stateJson = (named: NamedState) => ({
  state: named.state,
  cause: named.cause,
  inferred: named.inferred,
  since: iso(named.since),
});

/**
 * Device health (issue 31, docs/device-health.md): the state and cause the server names per
 * device, and the fleet's counts by state. Admin only.
 */
export const healthRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);

  app.get(
    '/api/devices/:id/health',
    { schema: DEVICE_HEALTH_SCHEMA, preHandler: admin, config: ACCESS.viewer.device },
    async (request) => {
      const found = await deviceHealth(ctx, request.params.id);
      if (!found) throw new HttpError(404, 'UNKNOWN_DEVICE', `No device "${request.params.id}" on this server`);
      const { row, named } = found;
      const refused = row.inputs.refused ?? null;
      return {
        device: row.id,
        ...stateJson(named),
        lastSeen: iso(row.inputs.lastSeen),
        report: asJson(row.inputs.report),
        reportedAt: iso(row.inputs.reportAt),
        // The server's own observation; `report` is what that refused request said, nothing more.
        refused: refused && {
          at: iso(refused.at),
          since: iso(refused.since),
          code: row.refusedCode,
          cause: refused.cause ?? 'auth-refused',
          report: asJson(row.refusedReport),
        },
        // The same, when it refused the device's credentials (the answer before issue 39).
        authRefused:
          refused && (refused.cause ?? 'auth-refused') === 'auth-refused'
            ? {
                at: iso(refused.at),
                since: iso(refused.since),
                code: row.refusedCode,
                report: asJson(row.refusedReport),
              }
            : null,
        history: await healthHistory(ctx.db, row.id, HISTORY_LIMIT),
      };
    },
  );

  // A user limited to orgs gets their orgs' devices, counted alone (issue 33): no other org's count.
  app.get('/api/health', { schema: FLEET_HEALTH_SCHEMA, config: ACCESS.viewer.filtered }, async (request) => {
    const reader = await requireAdmin(ctx, request);
    const fleet = await fleetHealth(ctx);
    const visible = liveScopeOf(ctx, reader);
    const seen = await Promise.all(fleet.devices.map(({ id }) => visible(id)));
    const devices = fleet.devices.filter((_, index) => seen[index]);
    const counts = Object.fromEntries(Object.keys(fleet.counts).map((state) => [state, 0]));
    for (const { named } of devices) counts[named.state] = (counts[named.state] ?? 0) + 1;
    return {
      counts,
      // How long a device may be quiet before it is named from its last report (a client waits that long).
      silentAfterSeconds: ctx.options.fleet.silentAfterMs / 1000,
      devices: devices.map(({ id, named }) => ({ id, ...stateJson(named) })),
    };
  });
};
