import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { locationsHandler, orgOfPathOrBody } from '../ingest.js';
import { INGEST_ROUTE, UPLOAD_BODY, UPLOAD_REPLY } from '../upload-route.js';

const route = { schema: { body: UPLOAD_BODY, response: UPLOAD_REPLY }, config: INGEST_ROUTE };
const withTokenRoute = { ...route, config: { ...INGEST_ROUTE, deviceTokenRequired: true } };

/**
 * The anchor's upload paths, all on Waypost's one location handler. Under /api/jwt a device token
 * is required (the anchor's v2 API); the others take a token too, and without one the device is
 * the one the body names inside the org of the path or body (the anchor's site API).
 */
export const anchorUploadRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const inOrg = locationsHandler(ctx, orgOfPathOrBody);
  for (const prefix of ['/api/jwt', '/api/firebase']) {
    app.post(`${prefix}/locations`, withTokenRoute, inOrg);
    app.post(`${prefix}/locations/:company_token`, withTokenRoute, inOrg);
  }
  for (const url of [
    '/api/locations/:company_token',
    '/api/site/locations',
    '/api/site/locations/:company_token',
    '/locations/:company_token',
  ]) {
    app.post(url, route, inOrg);
  }
};
