/**
 * The group each operation is listed under in the OpenAPI document (its `tags`), by its path: a
 * reader of the document, or a generated client, finds the uploads apart from the operator's API.
 */
export const OPENAPI_TAGS = [
  { name: 'uploads', description: "Devices' and trackers' uploads (docs/http-upload-spec.md, docs/trackers.md)" },
  { name: 'device credentials', description: 'Registration, token refresh and revocation' },
  { name: 'anchor', description: "The commercial demo server's API (docs/coming-from-the-demo-server.md)" },
  { name: 'operator', description: 'The admin API: devices, fleet settings, users, exports (docs/server.md)' },
  { name: 'dashboard', description: "The dashboard's own reads and share links" },
  { name: 'files', description: "The dashboard's, the tracker page's and the browser SDK's files" },
  { name: 'service', description: 'Health, metrics and the receipt keys' },
] as const;

type Tag = (typeof OPENAPI_TAGS)[number]['name'];

const UPLOADS = /^\/(api\/)?locations$|^\/(owntracks|overland|osmand|capacitor)$/;
const ANCHOR =
  /^\/api\/(jwt|site|firebase)\/|^\/api\/(register|refresh_token|company_tokens|stats|locations\/latest)$|^\/(api\/)?locations\/\{company_token\}$/;

export function tagOf(method: string, path: string): Tag {
  // GET and DELETE /api/locations are the anchor's reads; the other methods Waypost's uploads.
  if (path === '/api/locations' && (method === 'get' || method === 'delete')) return 'anchor';
  if (UPLOADS.test(path)) return 'uploads';
  if (ANCHOR.test(path)) return 'anchor';
  if (path.startsWith('/auth/')) return 'device credentials';
  if (path.startsWith('/api/dashboard/') || path.startsWith('/s/')) return 'dashboard';
  if (path === '/health' || path === '/metrics' || path.startsWith('/.well-known/')) return 'service';
  return path.startsWith('/api/') ? 'operator' : 'files';
}
