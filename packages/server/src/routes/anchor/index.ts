import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { anchorReadRoutes } from './read-routes.js';
import { anchorRegisterRoutes } from './register-routes.js';
import { anchorSiteRoutes } from './site-routes.js';
import { anchorUploadRoutes } from './upload-routes.js';
import { declarePublicFamily } from '../../http/route-access-check.js';

/**
 * The routes of the anchor's demo server (background-geolocation-console), so that an app or a
 * dashboard pointed at it can point here instead. See README "Coming from the demo server".
 */
export const anchorRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  declarePublicFamily(app, "the anchor's API, with its own org and device tokens");
  await app.register(anchorRegisterRoutes, { ctx });
  await app.register(anchorUploadRoutes, { ctx });
  await app.register(anchorSiteRoutes, { ctx });
  for (const prefix of ['/api/jwt', '/api/site', '/api/firebase']) {
    await app.register(anchorReadRoutes, { ctx, withDevices: true, prefix });
  }
  // The bare /api paths share GET /api/devices and DELETE /api/devices/:id with the admin API.
  await app.register(anchorReadRoutes, { ctx, withDevices: false, prefix: '/api' });
};
