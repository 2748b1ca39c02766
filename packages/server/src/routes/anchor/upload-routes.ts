import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { locationsHandler, orgOfPathOrBody } from '../ingest.js';
import { INGEST_ROUTE } from '../upload-route.js';
import { UPLOAD_BODY, UPLOAD_HEADERS, UPLOAD_REPLY, UPLOAD_SECURITY } from '../upload-schema.js';
import { ORG_PARAMS } from './schemas.js';

const schema = {
  summary: "Upload a device's locations on the anchor's paths (the org named by the path or the body)",
  security: UPLOAD_SECURITY,
  body: UPLOAD_BODY,
  headers: UPLOAD_HEADERS,
  response: UPLOAD_REPLY,
} as const;
const inPathOrg = { ...schema, params: ORG_PARAMS };
const withToken = { summary: "Upload a device's locations with its device token (the anchor's v2 API)" } as const;
const route = (withOrg: boolean, tokenRequired: boolean) => ({
  schema: { ...(withOrg ? inPathOrg : schema), ...(tokenRequired ? withToken : {}) },
  config: tokenRequired ? { ...INGEST_ROUTE, deviceTokenRequired: true } : INGEST_ROUTE,
});

/**
 * The anchor's upload paths, all on Waypost's one location handler. Under /api/jwt a device token
 * is required (the anchor's v2 API); the others take a token too, and without one the device is
 * the one the body names inside the org of the path or body (the anchor's site API).
 */
export const anchorUploadRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const inOrg = locationsHandler(ctx, orgOfPathOrBody);
  for (const prefix of ['/api/jwt', '/api/firebase']) {
    app.post(`${prefix}/locations`, route(false, true), inOrg);
    app.post(`${prefix}/locations/:company_token`, route(true, true), inOrg);
  }
  for (const url of [
    '/api/locations/:company_token',
    '/api/site/locations',
    '/api/site/locations/:company_token',
    '/locations/:company_token',
  ]) {
    app.post(url, route(url.includes(':'), false), inOrg);
  }
};
