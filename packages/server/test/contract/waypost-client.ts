// A client of Waypost written only against the OpenAPI document (issue 40 item 7): openapi-fetch
// over the types openapi-typescript generates from it. The type check of this file is the contract
// check: a route whose schema drops or renames what a client reads here fails it.
import createClient from 'openapi-fetch';
import type { paths } from './openapi-types.js';

/** What a device and its operator saw, through the typed client alone. */
export interface ClientRun {
  deviceId: string;
  expires: number;
  stored: number;
  duplicates: number;
  /** The GPX pages of the device's export, one record each, read by following the cursor. */
  pages: string[];
  /** The Link header of the first page. */
  link: string | null;
  /** The device's record count in the operator's device list, after both uploads. */
  listedRecords: number | null;
  /** What the upload made with the device's key (no token) stored. */
  storedWithKey: number;
}

function fail(step: string, response: Response): never {
  throw new Error(`${step}: ${response.status}`);
}

/**
 * Registers a device, uploads two locations with its token, then one with a device key the operator
 * makes for it (a tracker that cannot refresh a token), lists the fleet as the operator, and pages
 * the operator's GPX export one record at a time, as a third-party integrator would with a
 * generated client.
 */
export async function registerUploadRead(baseUrl: string, adminToken: string, deviceId: string): Promise<ClientRun> {
  const client = createClient<paths>({ baseUrl });
  const registered = await client.POST('/auth/register', { body: { device_id: deviceId, model: 'Typed' } });
  if (!registered.data) fail('register', registered.response);
  const { accessToken, expires } = registered.data;
  const at = (second: number) => `2024-05-01T10:00:0${second}.000Z`;
  const location = (second: number) => ({
    uuid: `${deviceId}-${second}`,
    timestamp: at(second),
    coords: { latitude: 45.5 + second / 1000, longitude: -73.6 },
  });
  const uploaded = await client.POST('/locations', {
    body: { location: [location(1), location(2)], device_id: registered.data.deviceId },
    headers: { authorization: `Bearer ${accessToken}` },
  });
  // The answer is the summary (an OwnTracks client would get the empty list of messages).
  if (!uploaded.data || Array.isArray(uploaded.data)) fail('upload', uploaded.response);
  const admin = { authorization: `Bearer ${adminToken}` };
  const keyed = await client.POST('/api/devices/{id}/key', { params: { path: { id: deviceId } }, headers: admin });
  if (!keyed.data) fail('device key', keyed.response);
  const withKey = await client.POST('/locations', {
    body: { location: [location(3)] },
    headers: { authorization: `Bearer ${keyed.data.key}` },
  });
  if (!withKey.data || Array.isArray(withKey.data)) fail('upload with key', withKey.response);
  const listed = await client.GET('/api/devices', { headers: admin });
  if (!listed.data) fail('device list', listed.response);
  const mine = listed.data.find((device) => 'id' in device && device.id === deviceId);
  const pages: string[] = [];
  let after: string | undefined;
  let link: string | null = null;
  for (;;) {
    const page = await client.GET('/api/devices/{id}/locations', {
      params: { path: { id: registered.data.deviceId }, query: { format: 'gpx', limit: '1', after } },
      headers: admin,
      parseAs: 'text',
    });
    if (page.data === undefined) fail('export', page.response);
    pages.push(page.data);
    if (pages.length === 1) link = page.response.headers.get('link');
    const next = page.response.headers.get('waypost-next-cursor');
    if (next === null || pages.length > 5) break;
    after = next;
  }
  return {
    deviceId: registered.data.deviceId,
    expires,
    stored: uploaded.data.stored,
    duplicates: uploaded.data.duplicates,
    pages,
    link,
    listedRecords: mine && 'records' in mine ? Number(mine.records) : null,
    storedWithKey: withKey.data.stored,
  };
}
