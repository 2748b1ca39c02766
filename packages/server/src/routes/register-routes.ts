import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerHealth } from '../http/drain.js';
import { accessRoutes } from './access-routes.js';
import { adminRoutes } from './admin.js';
import { anchorRoutes } from './anchor/index.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { browserSdkRoutes } from './browser-sdk.js';
import { dashboardApiRoutes } from './dashboard-api.js';
import { dashboardRoutes } from './dashboard.js';
import { deviceKeyRoutes } from './device-keys.js';
import { eventRoutes } from './events.js';
import { fleetRoutes } from './fleet-admin.js';
import { fleetHistoryRoutes } from './fleet-history.js';
import { healthRoutes } from './health.js';
import { ingestRoutes } from './ingest.js';
import { ledgerRoutes } from './ledger.js';
import { logRoutes } from './logs.js';
import { openTileFile, tileFileRoutes, type TileFile } from './mbtiles.js';
import { orgAdminRoutes } from './orgs-admin.js';
import { quarantineRoutes } from './quarantine.js';
import { retentionRoutes } from './retention.js';
import { sessionRoutes } from './session.js';
import { shareRoutes } from './shares.js';
import { trackGapRoutes } from './track-gaps.js';
import { trackTileRoutes } from './track-tiles.js';
import { userRoutes } from './users.js';

/** Every route of the service. A new route family is one line here; each route declares its access (config.access). */
export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerHealth(app, ctx.options.maxConnections);
  for (const routes of [
    ingestRoutes,
    anchorRoutes,
    orgAdminRoutes,
    authRoutes,
    adminRoutes,
    deviceKeyRoutes,
    fleetRoutes,
    fleetHistoryRoutes,
    quarantineRoutes,
    ledgerRoutes,
    healthRoutes,
    logRoutes,
    eventRoutes,
    sessionRoutes,
    dashboardApiRoutes,
    trackGapRoutes,
    trackTileRoutes,
    shareRoutes,
    retentionRoutes,
    auditRoutes,
    userRoutes,
    accessRoutes,
  ]) {
    await app.register(routes, { ctx });
  }
  let tiles: TileFile | null = null;
  if (ctx.options.tileFile) {
    if (ctx.options.tileUrl) throw new Error('Give tileUrl or tileFile, not both');
    tiles = await openTileFile(ctx.options.tileFile);
    await app.register(tileFileRoutes, { tiles });
  }
  await app.register(dashboardRoutes, { ctx, tiles });
  await app.register(browserSdkRoutes, { ctx });
}
