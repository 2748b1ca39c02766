import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { AppContext } from '../../context.js';
import { locationsHandler, orgOfBody, orgOfPathOrBody } from '../ingest.js';
import { INGEST_ROUTE } from '../upload-route.js';
import { UPLOAD_BODY, UPLOAD_HEADERS, UPLOAD_REPLY, UPLOAD_SECURITY } from '../upload-schema.js';
import { ORG_PARAMS } from './schemas.js';

/**
 * `?device_id=`, which the shared location handler reads here as on /locations (the device of a
 * bare-array body). Untyped: the anchor's paths never refused a value, so the schema refuses none
 * (text is used, anything else ignored, as before).
 */
const ANCHOR_DEVICE_QUERY = {
  type: 'object',
  properties: { device_id: { description: 'The device, when neither a token nor the body names it (text)' } },
} as const;

const schema = {
  summary: "Upload a device's locations on the anchor's paths (the org named by the path or the body)",
  security: UPLOAD_SECURITY,
  body: UPLOAD_BODY,
  headers: UPLOAD_HEADERS,
  querystring: ANCHOR_DEVICE_QUERY,
  response: UPLOAD_REPLY,
} as const;
const inPathOrg = { ...schema, params: ORG_PARAMS } as const;
const withToken = { summary: "Upload a device's locations with its device token (the anchor's v2 API)" } as const;
const config = (tokenRequired: boolean) =>
  tokenRequired ? { ...INGEST_ROUTE, deviceTokenRequired: true } : INGEST_ROUTE;

/**
 * The anchor's upload paths, all on Waypost's one location handler. Under /api/jwt a device token
 * is required (the anchor's v2 API); the others take a token too, and without one the device is
 * the one the body names inside the org of the path or body (the anchor's site API).
 */
export const anchorUploadRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const inBodyOrg = locationsHandler(ctx, orgOfBody);
  const inPathOrBodyOrg = locationsHandler(ctx, orgOfPathOrBody);
  for (const prefix of ['/api/jwt', '/api/firebase']) {
    app.post(`${prefix}/locations`, { schema: { ...schema, ...withToken }, config: config(true) }, inBodyOrg);
    app.post(
      `${prefix}/locations/:company_token`,
      { schema: { ...inPathOrg, ...withToken }, config: config(true) },
      inPathOrBodyOrg,
    );
  }
  app.post('/api/site/locations', { schema, config: config(false) }, inBodyOrg);
  for (const url of [
    '/api/locations/:company_token',
    '/api/site/locations/:company_token',
    '/locations/:company_token',
  ]) {
    app.post(url, { schema: inPathOrg, config: config(false) }, inPathOrBodyOrg);
  }
};
